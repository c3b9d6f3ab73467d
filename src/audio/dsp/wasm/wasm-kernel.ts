/**
 * What every WebAssembly kernel wrapper holds: the instance's exports and float64/float32 views of its
 * memory. The views are made once, after the memory has the size the kernel asks for, and stay valid
 * because no kernel grows its memory after that.
 */
import { PAGE } from './simd-kernels-abi';

export interface KernelExports {
  memory: WebAssembly.Memory;
}

export class WasmKernel<E extends KernelExports> {
  protected readonly exports: E;
  protected readonly f64: Float64Array;
  protected readonly f32: Float32Array;

  /** `bytes`: memory the kernel needs, grown to before the views are made (default: the module's own). */
  constructor(instance: WebAssembly.Instance, bytes = 0) {
    this.exports = instance.exports as unknown as E;
    const memory = this.exports.memory;
    if (bytes > memory.buffer.byteLength) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE));
    this.f64 = new Float64Array(memory.buffer);
    this.f32 = new Float32Array(memory.buffer);
  }

  /** The module's memory (another module of the same thread may import it, decision 321). */
  get memory(): WebAssembly.Memory {
    return this.exports.memory;
  }
}
