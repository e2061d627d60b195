/**
 * A small number of slots for an expensive operation of one store (held in its memory,
 * ./store-memory.ts). `tryTake` gives a release function, or null when every slot is taken;
 * releasing more than once frees the slot only once.
 */
export class Capacity {
  private taken = 0;

  constructor(readonly slots: number) {}

  tryTake(): (() => void) | null {
    if (this.taken >= this.slots) return null;
    this.taken += 1;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.taken -= 1;
    };
  }
}
