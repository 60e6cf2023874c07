"""The peers of ThemeLab's encoder, for Experiments/bench/encoder: ONNX Runtime (the model exported
to ONNX here, fp32) and PyTorch + sentence-transformers, each on 2 threads, mean pooling over the
attention mask, unit vectors. For each set, time each peer once (ONNX Runtime first, PyTorch first with
--reverse) and compare its vectors with ThemeLab's (NAME-themelab.npy, the last written by `themelab embed
--normalize`: the same bits in every round). Prints one JSON line per (set, peer).

usage: peer_encoder.py [--reverse] MODEL_DIR WORK_DIR SET...    (SET: a name with WORK_DIR/NAME.jsonl and NAME-themelab.npy)
"""
import json, os, resource, sys, time

import numpy as np
import onnxruntime as ort
import torch
from sentence_transformers import SentenceTransformer
from transformers import AutoTokenizer

THREADS, BATCH = 2, 64
reverse = sys.argv[1:2] == ["--reverse"]
model_dir, work, sets = sys.argv[1 + reverse], sys.argv[2 + reverse], sys.argv[3 + reverse:]
torch.set_num_threads(THREADS)
tokenizer = AutoTokenizer.from_pretrained(model_dir)
st = SentenceTransformer(model_dir, device="cpu")

onnx_path = f"{work}/model.onnx"
if not os.path.exists(onnx_path):
    class Hidden(torch.nn.Module):
        def __init__(self, bert):
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.bert(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state

    bert = Hidden(st[0].auto_model.eval())
    sample = tokenizer(["a sample sentence"], return_tensors="pt")
    torch.onnx.export(
        bert, (sample["input_ids"], sample["attention_mask"], sample["token_type_ids"]), onnx_path + ".tmp",
        input_names=["input_ids", "attention_mask", "token_type_ids"], output_names=["last_hidden_state"],
        dynamic_axes={n: {0: "batch", 1: "tokens"} for n in ["input_ids", "attention_mask", "token_type_ids", "last_hidden_state"]},
        opset_version=17, dynamo=False)
    os.replace(onnx_path + ".tmp", onnx_path)
options = ort.SessionOptions()
options.intra_op_num_threads, options.inter_op_num_threads = THREADS, 1
options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
session = ort.InferenceSession(onnx_path, options, providers=["CPUExecutionProvider"])


def onnx_encode(texts):
    """Length-sorted batches of 64, padded to the batch's longest; mean over the mask; unit rows."""
    lengths = [len(ids) for ids in tokenizer(texts)["input_ids"]]
    order = np.argsort(lengths, kind="stable")
    out = np.zeros((len(texts), 384), dtype=np.float32)
    for start in range(0, len(texts), BATCH):
        rows = order[start:start + BATCH]
        enc = tokenizer([texts[i] for i in rows], padding=True, truncation=True, max_length=256, return_tensors="np")
        feed = {k: enc[k].astype(np.int64) for k in ["input_ids", "attention_mask", "token_type_ids"]}
        hidden = session.run(None, feed)[0]
        mask = feed["attention_mask"][:, :, None].astype(np.float32)
        pooled = (hidden * mask).sum(axis=1) / mask.sum(axis=1)
        out[rows] = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
    return out


def torch_encode(texts):
    return st.encode(texts, batch_size=BATCH, convert_to_numpy=True, normalize_embeddings=True)


peers = {"onnxruntime": (onnx_encode, ort.__version__), "pytorch": (torch_encode, torch.__version__)}
for name in sets:
    texts = [json.loads(line)["text"] for line in open(f"{work}/{name}.jsonl")]
    ours = np.load(f"{work}/{name}-themelab.npy")
    for peer, (encode, version) in reversed(peers.items()) if reverse else peers.items():
        encode(texts[:BATCH])  # warm-up
        start = time.perf_counter()
        vectors = encode(texts)
        seconds = time.perf_counter() - start
        print(json.dumps({
            "set": name, "peer": peer, "version": version, "sentences": len(texts), "seconds": round(seconds, 4),
            "rate": round(len(texts) / seconds, 1), "max_abs_diff": float(np.abs(vectors - ours).max()),
            "process_peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}), flush=True)
