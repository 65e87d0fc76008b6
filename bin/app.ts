/**
 * The CDK app entry (`npx cdk synth`, `npx cdk deploy -c stage=prod`): one stack per stage, checked by the
 * cdk-nag AwsSolutions and Serverless packs. See lib/app.ts.
 */
import { createKmemApp } from '../lib/app';

createKmemApp().app.synth();
