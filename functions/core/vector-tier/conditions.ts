/** kmem's filter conditions over a stored vector's attributes: the tier's post-filter. */
import type { VectorAttributes, VectorConditions } from './ports';

/** Whether `attributes` satisfy every condition (an attribute the condition tests but the vector lacks fails it). */
export function matchesConditions(attributes: VectorAttributes, conditions: VectorConditions): boolean {
  const anyOf = (values: readonly string[] | undefined, value: string | undefined): boolean =>
    values === undefined || (value !== undefined && values.includes(value));
  if (!anyOf(conditions.fileIds, attributes.fileId)) return false;
  if (!anyOf(conditions.fileTypes, attributes.fileType)) return false;
  if (!anyOf(conditions.sessionIds, attributes.sessionId)) return false;
  if (!anyOf(conditions.userIds, attributes.userId)) return false;
  if (!anyOf(conditions.roles, attributes.role)) return false;
  if (conditions.sourceKeyPrefix !== undefined && !attributes.sourceKey?.startsWith(conditions.sourceKeyPrefix)) return false;
  if (!withinTime(attributes.createdAt, conditions)) return false;
  return Object.entries(conditions.metadata ?? {}).every(([key, wanted]) => {
    const value = attributes.metadata?.[key];
    return value !== undefined && (typeof wanted === 'string' ? value === wanted : wanted.includes(value));
  });
}

function withinTime(createdAt: number | undefined, conditions: VectorConditions): boolean {
  if (conditions.after === undefined && conditions.before === undefined) return true;
  if (createdAt === undefined) return false;
  return (
    (conditions.after === undefined || createdAt >= conditions.after) && (conditions.before === undefined || createdAt < conditions.before)
  );
}
