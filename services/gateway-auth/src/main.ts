import './tracing';
import { runService } from '@marketplace/runtime';
import { gatewayAuthService } from './service';

runService(gatewayAuthService);
