/**
 * The LoCoMo development split (`../shared/bench-data/locomo/locomo_dev.json`, read where it lies) in one
 * typed shape: per conversation its two speakers, its sessions (only those with turns, in session
 * order, each with its parsed start time) and its questions with their evidence dia_ids, kept exactly
 * as given (a malformed id such as `D8:6; D9:17` stays and counts as a miss, as in the original protocol).
 */
import { readFileSync } from 'node:fs';

export interface Turn {
  /** `D<session>:<turn>`. */
  diaId: string;
  speaker: string;
  text: string;
  /** Caption of an image the speaker shared (BLIP), when the turn has one. */
  caption?: string;
}

interface LocomoSession {
  number: number;
  /** `session_N_date_time` parsed as UTC. */
  startedAt: Date;
  turns: Turn[];
}

interface Question {
  question: string;
  evidence: string[];
  /** 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial. */
  category: number;
}

export interface Conversation {
  id: string;
  /** speaker_a, speaker_b. */
  speakers: readonly [string, string];
  sessions: LocomoSession[];
  questions: Question[];
}

interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

interface RawSample {
  sample_id: string;
  conversation: Record<string, unknown> & { speaker_a: string; speaker_b: string };
  qa: Array<{ question: string; evidence: string[]; category: number }>;
}

const SESSION_KEY = /^session_(\d+)$/;

export function loadLocomo(file: string): Conversation[] {
  const samples = JSON.parse(readFileSync(file, 'utf8')) as RawSample[];
  return samples.map((sample) => ({
    id: sample.sample_id,
    speakers: [sample.conversation.speaker_a, sample.conversation.speaker_b] as const,
    sessions: sessionsOf(sample.conversation),
    questions: sample.qa.map((qa) => ({ question: qa.question, evidence: [...qa.evidence], category: qa.category })),
  }));
}

function sessionsOf(conversation: Record<string, unknown>): LocomoSession[] {
  const sessions: LocomoSession[] = [];
  for (const [key, value] of Object.entries(conversation)) {
    const number = Number(SESSION_KEY.exec(key)?.[1]);
    if (!Number.isInteger(number) || !Array.isArray(value) || value.length === 0) continue;
    const when = conversation[`${key}_date_time`];
    if (typeof when !== 'string') throw new Error(`${key} has no date_time`);
    sessions.push({ number, startedAt: parseSessionTime(when), turns: (value as RawTurn[]).map(toTurn) });
  }
  return sessions.sort((a, b) => a.number - b.number);
}

function toTurn(raw: RawTurn): Turn {
  return { diaId: raw.dia_id, speaker: raw.speaker, text: raw.text, ...(raw.blip_caption ? { caption: raw.blip_caption } : {}) };
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const SESSION_TIME = /^(\d{1,2}):(\d{2})\s*(am|pm) on (\d{1,2}) ([A-Za-z]+),? (\d{4})$/i;

/** `1:56 pm on 8 May, 2023` → 2023-05-08T13:56:00Z. */
function parseSessionTime(text: string): Date {
  const match = SESSION_TIME.exec(text.trim());
  const month = MONTHS.indexOf(match?.[5]?.toLowerCase() ?? '');
  if (!match || month < 0) throw new Error(`unreadable session time '${text}'`);
  const hour = (Number(match[1]) % 12) + (match[3]?.toLowerCase() === 'pm' ? 12 : 0);
  return new Date(Date.UTC(Number(match[6]), month, Number(match[4]), hour, Number(match[2])));
}
