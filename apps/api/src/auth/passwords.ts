import bcrypt from 'bcryptjs';

const COST = 10;
// Compared against when the username is unknown, so both failures take the same time.
const DUMMY_HASH = bcrypt.hashSync('kidogo-timing-equaliser', COST);

export const hashPassword = (plain: string) => bcrypt.hash(plain, COST);

export async function verifyPassword(plain: string, hash: string | null): Promise<boolean> {
  const ok = await bcrypt.compare(plain, hash ?? DUMMY_HASH);
  return hash !== null && ok;
}
