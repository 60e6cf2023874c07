"""The numpy/scipy/scikit-learn/scikit-image way of one ThemeLab analysis (centred space, Otsu,
connected components, ARI), for Experiments/bench/peer. Prints its figures as JSON. With a
third argument t, also the components and ARI at that threshold (to compare groupings at the
same cut when the two Otsu choices differ by a bin)."""
import json, sys
import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components
from skimage.filters import threshold_otsu
from sklearn.metrics import adjusted_rand_score

x = np.load(sys.argv[1]).astype(np.float32)
labels = np.array([json.loads(l)["label"] for l in open(sys.argv[2])])
u = x / np.linalg.norm(x, axis=1, keepdims=True)
c = u - u.mean(axis=0)
c /= np.linalg.norm(c, axis=1, keepdims=True)
sim = c @ c.T
iu = np.triu_indices(len(c), 1)
values = sim[iu]
same = labels[iu[0]] == labels[iu[1]]
hist, edges = np.histogram(values, bins=65536, range=(-1, 1))
related, unrelated = values[same], values[~same]
t = float(threshold_otsu(values.astype(np.float64), nbins=256))
graph = csr_matrix(sim >= t)
count, assignment = connected_components(graph, directed=False)
same_cut = {}
if len(sys.argv) > 3:
    other = float(sys.argv[3])
    k, a = connected_components(csr_matrix(sim >= other), directed=False)
    same_cut = {"components_at_given": int(k), "ari_at_given": float(adjusted_rand_score(labels, a))}
print(json.dumps({
    **same_cut,
    "otsu": t, "components": int(count), "ari": float(adjusted_rand_score(labels, assignment)),
    "related_p1": float(np.percentile(related, 1)), "related_median": float(np.median(related)), "related_p99": float(np.percentile(related, 99)),
    "unrelated_p1": float(np.percentile(unrelated, 1)), "unrelated_median": float(np.median(unrelated)), "unrelated_p99": float(np.percentile(unrelated, 99)),
}))
