/**
 * The load scenarios. Each one is a single autocannon request whose `setupRequest` picks the next id
 * (cycling through the seeded ones) or writes a unique body, so no two requests hit the same cache line
 * and creates never collide.
 */
import type { RequestSpec } from 'autocannon';
import type { Seeded } from './seed';

export interface Targets {
  minRequestsPerSecond: number;
  maxP99Ms: number;
}

export interface Scenario {
  name: string;
  /** Absent: report only. */
  targets?: Targets;
  /** A fresh request spec for one autocannon run (autocannon mutates the spec it is given). */
  request(): RequestSpec;
}

/** The targets of the read scenarios. */
const READ_TARGETS: Targets = { minRequestsPerSecond: 500, maxP99Ms: 30 };

const JSON_HEADERS = { 'content-type': 'application/json' };

export function scenarios(seeded: Seeded, runTag: string): Scenario[] {
  return [
    readScenario('get user', (n) => `/users/get/${pick(seeded.userIds, n)}`),
    readScenario('get session', (n) => `/sessions/get/${pick(seeded.sessionIds, n)}`),
    readScenario('list users (limit 10)', () => '/users/list?limit=10'),
    readScenario('list messages (limit 20)', (n) => `/messages/list?sessionID=${pick(seeded.sessionIds, n)}&limit=20`),
    writeScenario('create user', '/users/create', (n) => ({
      email: `load-${runTag}-${n}@bench.example.com`,
      firstName: `Load${n}`,
    })),
    writeScenario('create message', '/messages/create', (n) => ({
      sessionID: pick(seeded.sessionIds, n),
      role: n % 2 === 0 ? 'user' : 'assistant',
      content: `Load message ${runTag}-${n}: ${'dolor sit amet '.repeat(6)}`,
    })),
  ];
}

function readScenario(name: string, pathOf: (n: number) => string): Scenario {
  const next = counter();
  return {
    name,
    targets: READ_TARGETS,
    request: () => ({ method: 'GET', setupRequest: (request) => ({ ...request, path: pathOf(next()) }) }),
  };
}

function writeScenario(name: string, path: string, bodyOf: (n: number) => unknown): Scenario {
  const next = counter();
  return {
    name,
    request: () => ({
      method: 'POST',
      path,
      headers: { ...JSON_HEADERS },
      setupRequest: (request) => ({ ...request, body: JSON.stringify(bodyOf(next())) }),
    }),
  };
}

/** One sequence per scenario, shared by all connections and by warm-up and measured run: never repeats. */
function counter(): () => number {
  let n = 0;
  return () => n++;
}

function pick<T>(items: readonly T[], n: number): T {
  return items[n % items.length]!;
}
