import type { Context } from 'koa';
import type { DeclarativeRequest } from './declarative-request.js';

/** Told of every declarative search answered (search analytics records what it asks to). */
export type DeclarativeObserver = (ctx: Context, request: DeclarativeRequest, answer: Record<string, unknown>) => void;
