import './tracing';
import { runService } from '@marketplace/runtime';
import { catalogService } from './service';

runService(catalogService);
