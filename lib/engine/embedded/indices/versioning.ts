import { EsError } from '../../../errors/index.js';
import type { StoredDocument } from '../store/index.js';

export type VersionType = 'internal' | 'external' | 'external_gt' | 'external_gte';

/** The versioning state of one document id (a live document or a kept tombstone). */
export interface DocVersion {
  version: number;
  seqNo: number;
  primaryTerm: number;
  deleted: boolean;
  /**
   * The stored form of this version while its write waits for the store commit (realtime reads
   * see it); undefined once committed (reads go to the store).
   */
  pending?: StoredDocument;
  /** Set once a write made this version visible to searches (its store commit is over). */
  visible?: boolean;
}

export interface ConcurrencyParams {
  ifSeqNo?: number;
  ifPrimaryTerm?: number;
  version?: number;
  versionType?: VersionType;
  /** op_type=create or the _create endpoint. */
  create?: boolean;
}

export interface IndexIdentity {
  name: string;
  uuid: string;
}

export function versionConflict(index: IndexIdentity, id: string, reason: string): EsError {
  return new EsError(409, 'version_conflict_engine_exception', `[${id}]: version conflict, ${reason}`, {
    index_uuid: index.uuid,
    shard: '0',
    index: index.name,
  });
}

/**
 * Checks a write's optimistic-concurrency conditions against the current state and returns the
 * version the write gets. Throws 409 version_conflict_engine_exception with ES's reason texts.
 */
export function nextVersion(index: IndexIdentity, id: string, current: DocVersion | undefined, p: ConcurrencyParams, isDelete = false): number {
  const live = current && !current.deleted ? current : undefined;
  if (p.create && live && !isDelete) {
    throw versionConflict(index, id, `document already exists (current version [${live.version}])`);
  }
  if (p.ifSeqNo !== undefined) {
    const term = p.ifPrimaryTerm ?? 0;
    if (!live) throw versionConflict(index, id, `required seqNo [${p.ifSeqNo}], primary term [${term}]. but no document was found`);
    if (live.seqNo !== p.ifSeqNo || live.primaryTerm !== term) {
      throw versionConflict(index, id, `required seqNo [${p.ifSeqNo}], primary term [${term}]. current document has seqNo [${live.seqNo}] and primary term [${live.primaryTerm}]`);
    }
  }
  const type = p.versionType ?? 'internal';
  if (type !== 'internal' && p.version !== undefined) {
    const cur = current?.version;
    if (cur !== undefined) {
      const ok = type === 'external_gte' ? p.version >= cur : p.version > cur;
      if (!ok) {
        throw versionConflict(index, id, type === 'external_gte'
          ? `current version [${cur}] is higher than the one provided [${p.version}]`
          : `current version [${cur}] is higher or equal to the one provided [${p.version}]`);
      }
    }
    return p.version;
  }
  return current ? current.version + 1 : 1;
}

/** Validation of the concurrency parameters of a request, before it runs (400s). */
export function validateConcurrencyParams(p: ConcurrencyParams): void {
  // ES's IndexRequest.validate: a create's own refusals come first, each alone
  if (p.create) validateCreate(p);
  if (p.ifSeqNo !== undefined && (p.ifSeqNo < 0 || !Number.isInteger(p.ifSeqNo))) {
    throw new EsError(400, 'action_request_validation_exception', `Validation Failed: 1: ifSeqNo is unassigned, but primary term is [${p.ifPrimaryTerm ?? 0}];`);
  }
  if (p.ifSeqNo !== undefined && !(p.ifPrimaryTerm && p.ifPrimaryTerm > 0)) {
    throw new EsError(400, 'action_request_validation_exception', `Validation Failed: 1: ifSeqNo is set, but primary term is [${p.ifPrimaryTerm ?? 0}];`);
  }
  if (p.ifSeqNo === undefined && p.ifPrimaryTerm !== undefined) {
    throw new EsError(400, 'action_request_validation_exception', `Validation Failed: 1: ifSeqNo is unassigned, but primary term is [${p.ifPrimaryTerm}];`);
  }
  // ES's validateSeqNoBasedCASParams: a version the type cannot write, then an internal version at all
  const problems: string[] = [];
  const type = p.versionType ?? 'internal';
  if (p.version !== undefined && !writableVersion(type, p.version)) problems.push(`illegal version value [${p.version}] for version type [${type.toUpperCase()}]`);
  if (p.version !== undefined && type === 'internal') {
    problems.push('internal versioning can not be used for optimistic concurrency control. Please use `if_seq_no` and `if_primary_term` instead');
  }
  if (problems.length) {
    throw new EsError(400, 'action_request_validation_exception', `Validation Failed: ${problems.map((m, i) => `${i + 1}: ${m};`).join('')}`);
  }
  if (p.versionType && p.versionType !== 'internal' && p.version === undefined) {
    throw new EsError(400, 'action_request_validation_exception', `Validation Failed: 1: version type [${p.versionType}] requires a version;`);
  }
}

/** VersionType.validateVersionForWrites: external versions are at least 0; an internal one positive, or MATCH_ANY (-3) / MATCH_DELETED (-4). */
function writableVersion(type: string, version: number): boolean {
  if (type === 'internal') return version > 0 || version === -3 || version === -4;
  return version >= 0;
}

/** A create (`op_type=create`, `_create`, an id the engine makes) takes no version and no compare-and-set. */
function validateCreate(p: ConcurrencyParams): void {
  const refuse = (reason: string) => new EsError(400, 'action_request_validation_exception', `Validation Failed: 1: ${reason};`);
  if (p.versionType && p.versionType !== 'internal') throw refuse('create operations only support internal versioning. use index instead');
  if (p.version !== undefined) throw refuse('create operations do not support explicit versions. use index instead');
  if (p.ifSeqNo !== undefined || p.ifPrimaryTerm !== undefined) throw refuse('create operations do not support compare and set. use index instead');
}
