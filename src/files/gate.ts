/**
 * At most `limit` tasks at once; the rest wait in arrival order. Decoding a 24-megapixel photograph takes about 100 MB
 * for a moment: ten uploads at once must not take a gigabyte.
 */
export class Gate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((go) => this.waiting.push(go));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
