// Wide tables that scroll sideways say so (a visible hint on narrow screens). Measuring forces a layout, so it waits
// until the page rests (200 ms after the last update) rather than costing every slider move a synchronous layout.
export class TableHints {
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly root: () => ParentNode) {}

  schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      for (const el of this.root().querySelectorAll<HTMLElement>('.table-wrap')) {
        el.toggleAttribute('data-scrolls', el.scrollWidth > el.clientWidth + 1);
      }
    }, 200);
  }
}
