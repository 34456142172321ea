/**
 * The minimal SQL executor both backends provide. Statements use `?` placeholders;
 * the PostgreSQL executor renumbers them. Atomic work is a batch of statements,
 * which both engines can run as one transaction without async interleaving.
 */
export type Row = Record<string, unknown>;
export type Param = string | number | null;

export interface SqlExecutor {
  readonly kind: string;
  all(sql: string, params?: Param[]): Promise<Row[]>;
  get(sql: string, params?: Param[]): Promise<Row | undefined>;
  /** Runs one statement; resolves to the number of rows it changed. */
  run(sql: string, params?: Param[]): Promise<number>;
  batch(statements: { sql: string; params: Param[] }[]): Promise<void>;
  close(): Promise<void>;
}
