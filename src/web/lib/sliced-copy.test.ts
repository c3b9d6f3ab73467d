import { describe, expect, it } from 'vitest';
import { copyChannelsInSlices, fillAudioBufferInSlices } from './sliced-copy';

const ramp = (n: number, offset = 0) => Float32Array.from({ length: n }, (_, i) => i + offset);

describe('copyChannelsInSlices', () => {
  it('copies every channel whole, into new arrays, whatever the slice', async () => {
    const channels = [ramp(10), ramp(10, 100)];
    const copies = await copyChannelsInSlices(channels, 3);
    expect(copies).toEqual(channels);
    copies[0]![0] = -1;
    expect(channels[0]![0]).toBe(0);
  });

  it('stops with the abort reason once the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(copyChannelsInSlices([ramp(10)], 4, controller.signal)).rejects.toThrow('stop');
  });
});

describe('fillAudioBufferInSlices', () => {
  it('copies each channel into the buffer slice by slice, at the right offsets', async () => {
    const data = [new Float32Array(7), new Float32Array(7)];
    const calls: [number, number, number][] = [];
    const buffer = {
      length: 7,
      copyToChannel(source: Float32Array, channel: number, offset: number) {
        calls.push([channel, offset, source.length]);
        data[channel]!.set(source, offset);
      },
    } as unknown as AudioBuffer;
    const channels = [ramp(7), ramp(7, 10)];
    expect(await fillAudioBufferInSlices(buffer, channels, 3)).toBe(buffer);
    expect(data).toEqual(channels);
    expect(calls).toEqual([
      [0, 0, 3],
      [0, 3, 3],
      [0, 6, 1],
      [1, 0, 3],
      [1, 3, 3],
      [1, 6, 1],
    ]);
  });
});
