// Native matrix products for the local embedding model, when onnxruntime-node is installed.
// The model's time is mostly matrix products. TensorFlow.js' WASM backend does them with XNNPACK
// (128-bit SIMD); ONNX Runtime's native kernels use the CPU's AVX2/AVX-512: the same products,
// several times faster.
//
// onnxruntime-node is an optional peer of the functions package: the repository's dev install
// provides it (the emulator, kb:import, tests); a deployed function does not need it (production
// embeds with Vertex AI) and the model falls back to XNNPACK when it is missing.
//
// Each product is one run of a one-node ONNX graph (MatMul, or Transpose+MatMul), synchronous, on
// views of the WASM heap: inputs are read and the output written in place, nothing is copied.
import { createRequire } from "node:module";

export interface NativeMatMul {
  /** out = a × b (b transposed over its last two axes when `transposeB`); same leading dims. */
  multiply(a: Float32Array, aDims: number[], b: Float32Array, bDims: number[], out: Float32Array, outDims: number[], transposeB: boolean): void;
}

interface OrtTensorClass {
  new (type: "float32", data: Float32Array, dims: number[]): unknown;
}
interface BindingSession {
  loadModel(buffer: ArrayBufferLike, byteOffset: number, byteLength: number, options: object): void;
  run(feeds: Record<string, unknown>, fetches: Record<string, unknown>, options: object): unknown;
}

/** The native products, or undefined when onnxruntime-node is not installed or does not load here. */
export function loadNativeMatMul(): NativeMatMul | undefined {
  let Tensor: OrtTensorClass;
  let Session: new () => BindingSession;
  try {
    const require = createRequire(import.meta.url);
    Tensor = (require("onnxruntime-node") as { Tensor: OrtTensorClass }).Tensor;
    // The binding's own run is synchronous (the package's async run only defers it): a TensorFlow.js
    // kernel must return its result synchronously.
    const { binding, initOrt } = require("onnxruntime-node/dist/binding.js") as {
      binding: { InferenceSession: new () => BindingSession };
      initOrt(): void;
    };
    initOrt();
    Session = binding.InferenceSession;
  } catch {
    return undefined;
  }
  const sessions = new Map<string, BindingSession>();
  const sessionFor = (rank: number, transposeB: boolean) => {
    const key = `${rank}:${transposeB}`;
    let session = sessions.get(key);
    if (!session) {
      const bytes = matMulModel(rank, transposeB);
      session = new Session();
      // One thread: each embedding worker is already one core's worth of work.
      session.loadModel(bytes.buffer, bytes.byteOffset, bytes.byteLength, { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: "sequential", graphOptimizationLevel: "all" });
      sessions.set(key, session);
    }
    return session;
  };
  try {
    // Fails here, not in the middle of a model call, if the native library cannot run on this machine.
    const probe = new Float32Array([1, 2, 3, 4]);
    const out = new Float32Array(4);
    sessionFor(2, false).run({ a: new Tensor("float32", probe, [2, 2]), b: new Tensor("float32", probe, [2, 2]) }, { y: new Tensor("float32", out, [2, 2]) }, {});
    if (out[0] !== 7 || out[3] !== 22) return undefined;
  } catch {
    return undefined;
  }
  return {
    multiply(a, aDims, b, bDims, out, outDims, transposeB) {
      const feeds = { a: new Tensor("float32", a, aDims), b: new Tensor("float32", b, bDims) };
      sessionFor(aDims.length, transposeB).run(feeds, { y: new Tensor("float32", out, outDims) }, {});
    },
  };
}

// --- a one-node ONNX model, written as protobuf by hand (onnx.proto field numbers) -------------------

const FLOAT = 1;
const varint = (n: number): number[] => {
  const out: number[] = [];
  while (n > 127) {
    out.push((n & 127) | 128);
    n >>>= 7;
  }
  out.push(n);
  return out;
};
const bytes = (field: number, value: Uint8Array | string): Uint8Array => {
  const data = typeof value === "string" ? new TextEncoder().encode(value) : value;
  return Uint8Array.from([...varint((field << 3) | 2), ...varint(data.length), ...data]);
};
const number = (field: number, value: number): Uint8Array => Uint8Array.from([...varint(field << 3), ...varint(value)]);
const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** ValueInfoProto: a float tensor of the given rank, every dimension symbolic. */
const floatInput = (name: string, rank: number) => {
  const dims = Array.from({ length: rank }, (_, i) => bytes(1, bytes(2, `${name}${i}`)));
  return concat(bytes(1, name), bytes(2, bytes(1, concat(number(1, FLOAT), bytes(2, concat(...dims))))));
};
/** NodeProto. */
const node = (op: string, inputs: string[], outputs: string[], attributes: Uint8Array[] = []) =>
  concat(...inputs.map((i) => bytes(1, i)), ...outputs.map((o) => bytes(2, o)), bytes(4, op), ...attributes.map((a) => bytes(5, a)));
/** AttributeProto of type INTS (7). */
const intsAttribute = (name: string, values: number[]) => concat(bytes(1, name), ...values.map((v) => number(8, v)), number(20, 7));

export function matMulModel(rank: number, transposeB: boolean): Uint8Array {
  const swapLast = [...Array(rank).keys()].map((i) => (i === rank - 1 ? rank - 2 : i === rank - 2 ? rank - 1 : i));
  const nodes = transposeB
    ? [node("Transpose", ["b"], ["bt"], [intsAttribute("perm", swapLast)]), node("MatMul", ["a", "bt"], ["y"])]
    : [node("MatMul", ["a", "b"], ["y"])];
  const graph = concat(...nodes.map((n) => bytes(1, n)), bytes(2, "matmul"), bytes(11, floatInput("a", rank)), bytes(11, floatInput("b", rank)), bytes(12, floatInput("y", rank)));
  // ModelProto: ir_version 8, opset 17 (default domain), the graph.
  return concat(number(1, 8), bytes(8, concat(bytes(1, ""), number(2, 17))), bytes(7, graph));
}
