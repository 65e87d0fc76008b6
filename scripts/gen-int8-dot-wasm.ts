/**
 * Regenerates functions/engine/retrieval/int8-dot-wasm.ts, the int8 dot-product kernel's wasm bytes,
 * from the hand assembler in scripts/wasm/int8-dot.ts (no compiler needed):
 *
 *   npx tsx scripts/gen-int8-dot-wasm.ts
 *
 * test/unit/retrieval/int8-dot-kernel.test.ts fails when the committed bytes and the assembler differ.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { int8DotModuleSource } from './wasm/int8-dot-source';

const target = resolve(import.meta.dirname, '../functions/engine/retrieval/int8-dot-wasm.ts');
writeFileSync(target, int8DotModuleSource());
process.stdout.write(`wrote ${target}\n`);
