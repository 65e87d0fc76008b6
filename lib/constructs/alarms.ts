/** Alarm creation with kmem's defaults: no data is not a breach, and every alarm notifies the same action. */
import { Alarm, ComparisonOperator, type IAlarmAction, type IMetric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';

/** What one alarm watches. */
export interface AlarmSpec {
  readonly metric: IMetric;
  /** Alarm when the metric reaches this value (or exceeds it, with `above: true`). */
  readonly threshold: number;
  readonly above?: boolean;
  readonly evaluationPeriods: number;
  readonly description: string;
}

/** Creates an alarm that fires (and recovers) through `action`, when given. */
export function addAlarm(scope: Construct, id: string, spec: AlarmSpec, action?: IAlarmAction): Alarm {
  const alarm = new Alarm(scope, id, {
    metric: spec.metric,
    threshold: spec.threshold,
    comparisonOperator: spec.above ? ComparisonOperator.GREATER_THAN_THRESHOLD : ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: spec.evaluationPeriods,
    treatMissingData: TreatMissingData.NOT_BREACHING,
    alarmDescription: spec.description,
  });
  if (action) {
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
  }
  return alarm;
}
