import type { Plugin } from 'esbuild';

/**
 * Vite's `?worker&url` imports of the AudioWorklet modules: here the URL of each one's separately built
 * bundle. Both harnesses bundle `src/audio/graph`, which names both worklets (mastering and pitch), so each
 * harness lists both; a worklet nobody knows is an error at build time, not a silent 404.
 */
export const WORKLET_URLS: Readonly<Record<string, string>> = {
  'mastering.worklet': '/mastering-worklet.js',
  'pitch.worklet': '/pitch-worklet.js',
};

export const workletUrls: Plugin = {
  name: 'worker-url',
  setup(b) {
    b.onResolve({ filter: /\?worker&url$/ }, (args) => ({ path: args.path, namespace: 'worker-url' }));
    b.onLoad({ filter: /.*/, namespace: 'worker-url' }, (args) => {
      const known = Object.keys(WORKLET_URLS).find((name) => args.path.includes(name));
      if (!known) throw new Error(`unknown worker url ${args.path}`);
      return { contents: `export default ${JSON.stringify(WORKLET_URLS[known])};`, loader: 'js' };
    });
  },
};
