/** onCurrentVersion: a read done again on a newer version when it fails after a publish; a failure on an unchanged version is the read's own. */
import { describe, expect, it } from 'vitest';
import { onCurrentVersion } from '../../../functions/core/use-cases/current-version';

const versionOf = (read: { version: number }) => read.version;

describe('onCurrentVersion', () => {
  it('runs again on the version published since a failed run, and answers from it', async () => {
    const published = [{ version: 2 }, { version: 3 }];
    const ran: number[] = [];
    const answer = await onCurrentVersion({ version: 1 }, { reread: async () => published.shift(), versionOf }, async (read) => {
      ran.push(read.version);
      if (read.version < 3) throw new Error(`version ${read.version} was collected`);
      return 'answered';
    });
    expect({ answer, ran }).toEqual({ answer: 'answered', ran: [1, 2, 3] });
  });

  it('fails with the run’s own error when no other version was published, or the record is gone', async () => {
    const failing = async () => Promise.reject(new Error('disk on fire'));
    await expect(onCurrentVersion({ version: 4 }, { reread: async () => ({ version: 4 }), versionOf }, failing)).rejects.toThrow(
      'disk on fire',
    );
    await expect(onCurrentVersion({ version: 4 }, { reread: async () => undefined, versionOf }, failing)).rejects.toThrow('disk on fire');
  });

  it('gives up after three runs while versions keep coming', async () => {
    let next = 1;
    let runs = 0;
    const failing = async (read: { version: number }) => {
      runs++;
      throw new Error(`version ${read.version} was collected`);
    };
    await expect(onCurrentVersion({ version: 1 }, { reread: async () => ({ version: ++next }), versionOf }, failing)).rejects.toThrow(
      'version 3 was collected',
    );
    expect(runs).toBe(3);
  });
});
