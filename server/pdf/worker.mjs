// A PDF worker thread (see pool.ts). Worker threads do not inherit the tsx
// loader of the main thread, so register it here, then load the TypeScript.
import { register } from 'tsx/esm/api';

register();
await import('./worker-thread.ts');
