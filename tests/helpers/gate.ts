/**
 * A gate that fake database reads wait at, for cache tests: `hold()` closes
 * it and returns the function that opens it again; `passed()` is what a read awaits.
 */
export function createGate() {
  let gate: Promise<void> = Promise.resolve();
  return {
    passed: () => gate,
    hold() {
      let release!: () => void;
      gate = new Promise((r) => {
        release = r;
      });
      return () => {
        gate = Promise.resolve();
        release();
      };
    },
  };
}
