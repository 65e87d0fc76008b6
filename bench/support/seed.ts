/** Seeds the data the read scenarios cycle through: users, and sessions holding messages. */
import { type ApiClient, idOf, inParallel } from './api';

export interface SeedPlan {
  users: number;
  sessions: number;
  messagesPerSession: number;
  concurrency: number;
}

export interface Seeded {
  userIds: string[];
  sessionIds: string[];
  messages: number;
  ms: number;
}

export const DEFAULT_SEED: SeedPlan = { users: 200, sessions: 20, messagesPerSession: 50, concurrency: 10 };

const ROLES = ['user', 'assistant'] as const;

export async function seed(api: ApiClient, plan: SeedPlan = DEFAULT_SEED): Promise<Seeded> {
  const started = performance.now();
  const userIds = await inParallel(plan.users, plan.concurrency, (i) => api.post('/users/create', seedUser(i)).then(idOf));
  const sessionIds = await inParallel(plan.sessions, plan.concurrency, (i) =>
    api.post('/sessions/create', { sessionID: `bench-session-${i}` }).then(idOf),
  );
  const total = plan.sessions * plan.messagesPerSession;
  await inParallel(total, plan.concurrency, (i) => api.post('/messages/create', seedMessage(sessionIds[i % plan.sessions]!, i)));
  return { userIds, sessionIds, messages: total, ms: performance.now() - started };
}

function seedUser(i: number) {
  return { email: `seed-${i}@bench.example.com`, firstName: `Seed${i}`, lastName: 'User' };
}

function seedMessage(sessionID: string, i: number) {
  return { sessionID, role: ROLES[i % ROLES.length], content: `Seed message ${i}: ${'lorem ipsum '.repeat(8)}` };
}
