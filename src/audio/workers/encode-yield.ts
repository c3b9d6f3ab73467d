/**
 * Lets a long job in a worker give its event loop a turn, so a 'cancel' message can arrive between blocks.
 * A MessageChannel round trip is used rather than setTimeout(0), which browsers clamp to 4 ms once nested.
 */
export const yieldToEventLoop = (): Promise<void> =>
  new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
