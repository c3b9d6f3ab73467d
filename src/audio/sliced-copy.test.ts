import { describe, expect, it } from 'vitest';
import { copyChannelsInSlices, fillAudioBufferInSlices, touchAudioBufferInSlices } from './sliced-copy';

const ramp = (n: number, offset = 0) => Float32Array.from({ length: n }, (_, i) => i + offset);

describe('copyChannelsInSlices', () => {
  it('copies every channel whole, into new arrays, whatever the slice', async () => {
    const channels = [ramp(10), ramp(10, 100)];
    const copies = await copyChannelsInSlices(channels, 3);
    expect(copies).toEqual(channels);
    copies[0]![0] = -1;
    expect(channels[0]![0]).toBe(0);
  });

  it("does nothing in the caller's task, and one channel's slice per task after it", async () => {
    const touched: number[] = [];
    const channels = [ramp(6), ramp(6, 10)].map((c, i) => {
      const sub = c.subarray.bind(c);
      c.subarray = (a?: number, b?: number) => {
        touched.push(i);
        return sub(a, b);
      };
      return c;
    });
    const copying = copyChannelsInSlices(channels, 6);
    // The loaded track's task goes on to its other jobs first (decision 290).
    expect(touched).toEqual([]);
    expect(await copying).toEqual([ramp(6), ramp(6, 10)]);
    expect(touched).toEqual([0, 1]);
  });

  it('copies every sample of long channels into new buffers, slice by slice', async () => {
    const a = Float32Array.from({ length: 1000 }, (_, i) => i);
    const b = Float32Array.from({ length: 1000 }, (_, i) => -i);
    const [ca, cb] = await copyChannelsInSlices([a, b], 64);
    expect(ca!.buffer).not.toBe(a.buffer);
    expect(Array.from(ca!)).toEqual(Array.from(a));
    expect(Array.from(cb!)).toEqual(Array.from(b));
  });

  it('stops with the abort reason once the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(copyChannelsInSlices([ramp(10)], 4, controller.signal)).rejects.toThrow('stop');
  });
});

describe('fillAudioBufferInSlices', () => {
  /** A stand-in AudioBuffer whose channel arrays record each slice written into them. */
  const recordingBuffer = (length: number, count: number) => {
    const calls: [number, number, number][] = [];
    const data = Array.from({ length: count }, (_, channel) => {
      const array = new Float32Array(length);
      const set = array.set.bind(array);
      array.set = (source: ArrayLike<number>, offset = 0) => {
        calls.push([channel, offset, source.length]);
        set(source, offset);
      };
      return array;
    });
    const buffer = { length, getChannelData: (c: number) => data[c]! } as unknown as AudioBuffer;
    return { buffer, data, calls };
  };

  it('copies each channel into the buffer slice by slice, at the right offsets', async () => {
    const { buffer, data, calls } = recordingBuffer(7, 2);
    const channels = [ramp(7), ramp(7, 10)];
    expect(await fillAudioBufferInSlices(buffer, channels, 3)).toBe(buffer);
    expect(data.map((d) => [...d])).toEqual(channels.map((c) => [...c]));
    expect(calls).toEqual([
      [0, 0, 3],
      [0, 3, 3],
      [0, 6, 1],
      [1, 0, 3],
      [1, 3, 3],
      [1, 6, 1],
    ]);
  });

  it('takes channels on shared memory (the two-worker master comes back on it)', async () => {
    const { buffer, data } = recordingBuffer(5, 1);
    const shared = new Float32Array(new SharedArrayBuffer(5 * 4));
    shared.set(ramp(5, 3));
    await fillAudioBufferInSlices(buffer, [shared], 2);
    expect([...data[0]!]).toEqual([...ramp(5, 3)]);
  });
});

describe('touchAudioBufferInSlices (decision 298)', () => {
  /** A stand-in AudioBuffer whose channel arrays record each range filled. */
  const fillingBuffer = (length: number, count: number) => {
    const fills: [number, number, number][] = [];
    const data = Array.from({ length: count }, (_, channel) => {
      const array = new Float32Array(length).fill(1);
      const fill = array.fill.bind(array);
      array.fill = (value: number, start = 0, end = length) => {
        fills.push([channel, start, end]);
        return fill(value, start, end);
      };
      return array;
    });
    const buffer = { length, numberOfChannels: count, getChannelData: (c: number) => data[c]! };
    return { buffer: buffer as unknown as AudioBuffer, data, fills };
  };

  it('writes every sample of every channel once, one slice per task', async () => {
    const { buffer, data, fills } = fillingBuffer(7, 2);
    const touching = touchAudioBufferInSlices(buffer, 3);
    // The caller's task writes the first slice only; the others follow a turn of the event loop apart.
    expect(fills).toEqual([[0, 0, 3]]);
    await touching;
    expect(fills).toEqual([
      [0, 0, 3],
      [0, 3, 6],
      [0, 6, 7],
      [1, 0, 3],
      [1, 3, 6],
      [1, 6, 7],
    ]);
    expect(data.every((d) => d.every((v) => v === 0))).toBe(true);
  });

  it('stops with the abort reason once the signal is aborted', async () => {
    const { buffer, fills } = fillingBuffer(10, 1);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(touchAudioBufferInSlices(buffer, 4, controller.signal)).rejects.toThrow('stop');
    expect(fills.length).toBe(1);
  });
});
