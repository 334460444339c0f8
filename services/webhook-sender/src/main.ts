import './tracing';
import { runService } from '@marketplace/runtime';
import { webhookSenderService } from './service';

runService(webhookSenderService);
