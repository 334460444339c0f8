import './tracing';
import { runService } from '@marketplace/runtime';
import { providerDeliveryService } from './service';

runService(providerDeliveryService);
