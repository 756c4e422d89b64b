// What an operation sees of a request, and what it answers: the vocabulary the HTTP layer and
// every operation share. Nothing here knows HTTP's wire.

import type { Realm, UploadedFile, User } from './model.js';
import type { Params } from './params.js';

/** Marks an operation's answer as raw bytes (a served file) rather than JSON. */
export const RAW = Symbol('raw');


export interface Request {
  readonly realm: Realm;
  readonly user: User;
  readonly params: Params;
  readonly path: Readonly<Record<string, string>>;
  readonly files: readonly UploadedFile[];
  /** Resolves when the server shuts down, so that long polls can end. */
  readonly closed: Promise<void>;
  /** Who sent the request, for the pages that act for a person at this machine (the annotated spec's "Try it"). */
  readonly peer: () => Peer;
  /** Puts the organization back as the server started it. */
  readonly reset: () => void;
}

/** Where a request came from: this machine or not, and what its browser said of the page that sent it. */
export interface Peer {
  readonly loopback: boolean;
  /** The Origin header, if any, and the Host the request was sent to. */
  readonly origin: string | undefined;
  readonly host: string | undefined;
  /** The port the request reached this server on. */
  readonly port: number | undefined;
  /** Whether the request carries the header no other site's page can send without asking first. */
  readonly fromPage: boolean;
}

/** The organization a server serves, which a reset replaces. */
export interface House {
  realm: Realm;
  reset(): void;
}

export type Operation = (request: Request) => Record<string, unknown> | Promise<Record<string, unknown>>;

export interface Route {
  /** A path such as /api/v1/drafts/{draft_id:int}. */
  readonly path: string;
  readonly methods: Readonly<Partial<Record<string, Operation>>>;
  /** Routes reachable without credentials. */
  readonly unauthenticated?: boolean;
  /** The level from which success responses carry ignored_parameters_unsupported (spec "Versioning"). */
  readonly ignoredParametersSince?: number;
  /** The feature level each method appears at; below it, the server has no such method. */
  readonly since?: Readonly<Partial<Record<string, number>>>;
}
