import './tracing';
import { printRoutesAndExit, routesRequested, runService } from '@marketplace/runtime';
import { declaredRoutes } from './http/routes';
import { catalogService } from './service';

// `node dist/main.js --routes` prints the route table (method, path, audience) as JSON and exits,
// connecting to nothing: the review surface of who may call what (npm run routes).
if (routesRequested()) printRoutesAndExit(declaredRoutes);
else runService(catalogService);
