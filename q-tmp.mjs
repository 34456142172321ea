import Database from 'better-sqlite3';
const db = new Database(process.env.DB, { readonly: true });
const succ = w => w.slice(0,-1)+String.fromCodePoint(w.codePointAt(w.length-1)+1);
const terms = process.argv.slice(2);
const R = terms.map(w=>[w,succ(w)]);
const base = `p.status = 'member' AND p.accepts_questions = 1`;
const V = {
 A_walk_in: [`SELECT p.* FROM principals p WHERE ${base} ${R.map(()=>`AND p.id IN (SELECT t.principal_id FROM principal_terms t WHERE t.term >= ? AND t.term < ?)`).join(' ')} ORDER BY p.handle LIMIT 21`, R.flat()],
 B_walk_exists: [`SELECT p.* FROM principals p WHERE ${base} ${R.map(()=>`AND EXISTS (SELECT 1 FROM principal_terms t WHERE t.principal_id = p.id AND t.term >= ? AND t.term < ?)`).join(' ')} ORDER BY p.handle LIMIT 21`, R.flat()],
 C_intersect: [`SELECT p.* FROM (${R.map(()=>`SELECT principal_id FROM principal_terms WHERE term >= ? AND term < ?`).join(' INTERSECT ')}) m CROSS JOIN principals p ON p.id = m.principal_id WHERE ${base} ORDER BY p.handle LIMIT 21`, R.flat()],
 D_drive_exists: [`SELECT p.* FROM (SELECT DISTINCT t0.principal_id FROM principal_terms t0 WHERE t0.term >= ? AND t0.term < ? ${R.slice(1).map(()=>`AND EXISTS (SELECT 1 FROM principal_terms t WHERE t.principal_id = t0.principal_id AND t.term >= ? AND t.term < ?)`).join(' ')}) m CROSS JOIN principals p ON p.id = m.principal_id WHERE ${base} ORDER BY p.handle LIMIT 21`, R.flat()],
 E_count: [`SELECT COUNT(*) AS n FROM (SELECT 1 FROM principal_terms WHERE term >= ? AND term < ? LIMIT 20001) x`, R[0]],
};
for (const [k,[q,ps]] of Object.entries(V)) {
  const st = db.prepare(q);
  const ts=[]; let n;
  for (let i=0;i<30;i++){ const t=performance.now(); n=st.all(...ps).length; ts.push(performance.now()-t);}
  ts.sort((a,b)=>a-b); console.log(terms.join(' '), k, n, 'p50', ts[15].toFixed(2), 'max', ts[29].toFixed(2));
}
