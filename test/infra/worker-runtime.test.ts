/** The worker's runtime-module install refuses an npm that would ignore --os/--cpu/--libc. */
import { describe, expect, it } from 'vitest';
import { checkNpmVersion } from '../../lib/bundling/worker-runtime';

describe('checkNpmVersion', () => {
  it('takes npm 10.3 and later', () => {
    for (const version of ['10.3.0', '10.5.0', '10.8.2', '11.0.0', '11.19.1'])
      expect(() => checkNpmVersion(version), version).not.toThrow();
  });

  it('refuses older npm, saying what is needed', () => {
    for (const version of ['10.2.4', '10.1.0', '9.9.3', '8.19.4']) {
      expect(() => checkNpmVersion(version), version).toThrow(/npm 10\.3\.0 or later is needed/);
    }
  });
});
