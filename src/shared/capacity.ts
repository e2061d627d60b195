/**
 * A small number of slots for an expensive operation, held per isolate: one pool, or one per key
 * where the isolate serves several stores and each store must have its own (module state is shared
 * by every store an isolate serves: the teams of the team service). `tryTake` gives a release
 * function, or null when every slot of the key is taken; releasing more than once frees the slot only once.
 */
export class Capacity {
  /** Slots taken, by key; a key whose slots are all free is dropped, so the map holds only keys in use. */
  private readonly taken = new Map<string, number>();

  constructor(readonly slots: number) {}

  tryTake(key = ''): (() => void) | null {
    const taken = this.taken.get(key) ?? 0;
    if (taken >= this.slots) return null;
    this.taken.set(key, taken + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const left = this.taken.get(key)! - 1;
      if (left === 0) this.taken.delete(key);
      else this.taken.set(key, left);
    };
  }
}
