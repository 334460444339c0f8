import './tracing';
import { runService } from '@marketplace/runtime';
import { deliveryAssignmentService } from './service';

runService(deliveryAssignmentService);
