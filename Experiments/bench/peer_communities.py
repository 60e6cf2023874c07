"""The scikit-learn / leidenalg way of one ThemeLab grouping, for Experiments/bench/communities.
Reads DIR/vectors.npy (centred unit vectors), DIR/topics.txt and DIR/labels.txt (ThemeLab's labels),
runs the peer on the same vectors and prints JSON: its time (vectors in memory to labels), peak RSS,
ARI against ThemeLab's partition and against the topics (noise as groups of one), noise share, and
for Leiden igraph's modularity of both partitions.
usage: peer_communities.py DIR hdbscan M K | leiden K GAMMA"""
import json, resource, sys, time
import numpy as np
from sklearn.metrics import adjusted_rand_score


def singletons(labels):
    labels = np.array(labels)
    out = labels.copy()
    noise = np.where(labels < 0)[0]
    out[noise] = labels.max() + 1 + np.arange(len(noise))
    return out


folder, method = sys.argv[1], sys.argv[2]
x = np.load(f"{folder}/vectors.npy").astype(np.float32)
topics = np.loadtxt(f"{folder}/topics.txt", dtype=np.int64)
ours = np.loadtxt(f"{folder}/labels.txt", dtype=np.int64)
start = time.perf_counter()
result = {}
if method == "hdbscan":
    from sklearn.cluster import HDBSCAN
    m, k = int(sys.argv[3]), int(sys.argv[4])
    d = x @ x.T
    d = 1.0 - d.astype(np.float64)
    np.fill_diagonal(d, 0.0)
    labels = HDBSCAN(min_cluster_size=m, min_samples=k, metric="precomputed", copy=False).fit(d).labels_
    del d
else:
    import igraph, leidenalg
    k, gamma = int(sys.argv[3]), float(sys.argv[4])
    n = len(x)
    keys = {}
    for a in range(0, n, 2048):
        s = x[a:a + 2048] @ x.T
        for r in range(len(s)):
            s[r, a + r] = -np.inf
        top = np.argpartition(-s, k, axis=1)[:, :k]
        for r in range(len(s)):
            for j in top[r]:
                if s[r, j] > 0:
                    keys[(min(a + r, j), max(a + r, j))] = float(s[r, j])
    graph = igraph.Graph(n=n, edges=list(keys))
    graph.es["weight"] = list(keys.values())
    labels = np.array(leidenalg.find_partition(graph, leidenalg.RBConfigurationVertexPartition, weights="weight",
                                               resolution_parameter=gamma, n_iterations=-1, seed=0).membership)
    result["modularity_peer"] = graph.modularity(labels.tolist(), weights="weight", resolution=gamma)
    result["modularity_ours"] = graph.modularity(ours.tolist(), weights="weight", resolution=gamma)
result["seconds"] = time.perf_counter() - start
result["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
result["ari_vs_ours"] = adjusted_rand_score(singletons(ours), singletons(labels))
result["ari_vs_topics"] = adjusted_rand_score(topics, singletons(labels))
result["noise_share"] = float(np.mean(labels < 0))
result["groups"] = int(len(set(labels.tolist()) - {-1}))
print(json.dumps(result))
