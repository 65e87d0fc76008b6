/**
 * ForceAtlas2 off the main thread: the worker lays out a copy of the graph, and its positions are copied
 * into the drawn graph once a second, so a large graph is re-processed by sigma once a second rather
 * than on every layout step, and panning and zooming stay smooth meanwhile.
 */
import { inferSettings } from 'graphology-layout-forceatlas2';
import FA2Layout from 'graphology-layout-forceatlas2/worker';
import type { EntityGraph } from './model';

const SYNC_MS = 1000;

export class BackgroundLayout {
  private readonly shadow: EntityGraph;
  private readonly worker: FA2Layout;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly graph: EntityGraph) {
    this.shadow = graph.copy();
    this.worker = new FA2Layout(this.shadow, { settings: { ...inferSettings(this.shadow), barnesHutOptimize: graph.order > 1000 } });
  }

  get running(): boolean {
    return this.worker.isRunning();
  }

  start(): void {
    this.worker.start();
    this.timer ??= setInterval(() => this.sync(), SYNC_MS);
  }

  stop(): void {
    this.worker.stop();
    clearInterval(this.timer);
    this.timer = undefined;
    this.sync();
  }

  kill(): void {
    clearInterval(this.timer);
    this.worker.kill();
  }

  private sync(): void {
    const shadow = this.shadow;
    this.graph.updateEachNodeAttributes(
      (node, attributes) => {
        attributes.x = shadow.getNodeAttribute(node, 'x');
        attributes.y = shadow.getNodeAttribute(node, 'y');
        return attributes;
      },
      { attributes: ['x', 'y'] },
    );
  }
}
