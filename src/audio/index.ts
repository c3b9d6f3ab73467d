/**
 * The audio engine's public face. React and the rest of the app import from here only.
 * Each sub-folder exposes its own index; this file gathers them.
 */
export {};
