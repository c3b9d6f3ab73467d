/** The worklet module's URL, bundled by Vite as its own ES module (`?worker&url`). */
import url from './mastering.worklet.ts?worker&url';

export const MASTERING_WORKLET_URL: string = url;
