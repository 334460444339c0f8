import './tracing';
import { runService } from '@marketplace/runtime';
import { orderingPricingService } from './service';

runService(orderingPricingService);
