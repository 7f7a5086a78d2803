/**
 * Deleting an account (GDPR art. 17): every personal row and file goes (erasure.ts), not only the account row, and
 * the account's sockets close. A user deletes their own account with the password confirmed recently and is signed
 * out; staff delete others: admins remove members, only a super admin removes an admin, nobody removes a super admin
 * here, and that deletion is audited.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, notFound, passwordConfirmationRequired } from '../../errors.ts';
import { endSession, passwordRecentlyConfirmed, requireUser } from '../../plugins/session.ts';
import { recordAudit } from '../audit/audit.ts';
import { findUserById } from '../auth/users.repository.ts';
import { eraseAccount, removeErasedFiles } from './erasure.ts';

/** Deletes account `targetId` for the signed-in caller; says whether it was their own (their session is over). */
export async function deleteAccount(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  targetId: number,
): Promise<'own' | 'other'> {
  const actor = requireUser(req);
  const target = await findUserById(app.db, targetId);
  if (actor.id === targetId) {
    if (!passwordRecentlyConfirmed(req)) throw passwordConfirmationRequired();
    const erased = await app.db.transaction((tx) => eraseAccount(tx, actor.id));
    await removeErasedFiles(app.storage, erased, req.log);
    await app.broadcaster.terminateUserConnections(String(actor.id));
    await endSession(app.db, req, reply);
    return 'own';
  }
  const staff = actor.role === 'admin' || actor.role === 'super_admin';
  if (!staff) throw forbidden();
  if (!target) throw notFound();
  if (target.role === 'super_admin' || (target.role === 'admin' && actor.role !== 'super_admin')) throw forbidden();
  const erased = await app.db.transaction(async (tx) => {
    const result = await eraseAccount(tx, target.id);
    // The entry outlives the account: it says which account went and what it was, not who the person was.
    await recordAudit(tx, {
      actor,
      action: 'user.delete',
      subjectType: 'user',
      subjectId: target.id,
      before: { role: target.role, status: target.status },
      req,
    });
    return result;
  });
  await removeErasedFiles(app.storage, erased, req.log);
  await app.broadcaster.terminateUserConnections(String(target.id));
  return 'other';
}
