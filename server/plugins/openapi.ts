import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';

/**
 * Route schemas are zod schemas (validated at the edge, typed in handlers); the same schemas make
 * the OpenAPI document at /api/docs/json, browsable at /api/docs (apiDocs).
 */
export async function openApi(app: FastifyInstance): Promise<void> {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Leadership funnel API',
        description: 'Flows, the lead service, the named functions, payments and admin.',
        version: '1.0.0',
      },
    },
    transform: jsonSchemaTransform,
  });
}

/** The OpenAPI document and its browser at /api/docs: registered after the compression, which they need (the document is 170 KB). */
export async function apiDocs(app: FastifyInstance): Promise<void> {
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
}
