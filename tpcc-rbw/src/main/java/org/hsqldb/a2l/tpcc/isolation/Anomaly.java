package org.hsqldb.a2l.tpcc.isolation;

import java.util.function.Supplier;

/**
 * The anomalies SERIALIZABLE excludes, each as the two-session schedule that would show it (the
 * schedules of the fork's SerializableAnomaliesTest, and the Adya phenomena G0-G2 as they are
 * usually tested against SQL engines). Table {@code iso_acc}: rows (id 1, x 50, y 50, oncall 1) and
 * (id 2, x 50, y 50, oncall 1). Each schedule is issued step by step in the order written; a step
 * that does not finish within the block timeout is "blocked" and the next step is issued anyway.
 */
public enum Anomaly {

    G0("G0", "dirty write",
            "T2 overwrites a row T1 wrote and has not committed; the final rows mix both transactions' writes",
            () -> Schedule.builder()
                    .write(1, "UPDATE iso_acc SET x = 11 WHERE id = 1")
                    .write(2, "UPDATE iso_acc SET x = 12 WHERE id = 1")
                    .write(1, "UPDATE iso_acc SET x = 21 WHERE id = 2")
                    .commit(1)
                    .write(2, "UPDATE iso_acc SET x = 22 WHERE id = 2")
                    .commit(2)
                    .anomalousIf(o -> (o.fin("x1") == 11 && o.fin("x2") == 22)
                            || (o.fin("x1") == 12 && o.fin("x2") == 21))),

    G1A("G1a", "aborted read (dirty read)",
            "T2 reads a value T1 wrote and then rolled back",
            () -> Schedule.builder()
                    .write(1, "UPDATE iso_acc SET x = 101 WHERE id = 1")
                    .read(2, "r", "SELECT x FROM iso_acc WHERE id = 1")
                    .rollback(1)
                    .commit(2)
                    .anomalousIf(o -> o.saw("r", 101))),

    G1B("G1b", "intermediate read",
            "T2 reads a value T1 wrote and overwrote before it committed",
            () -> Schedule.builder()
                    .write(1, "UPDATE iso_acc SET x = 101 WHERE id = 1")
                    .read(2, "r", "SELECT x FROM iso_acc WHERE id = 1")
                    .write(1, "UPDATE iso_acc SET x = 11 WHERE id = 1")
                    .commit(1)
                    .commit(2)
                    .anomalousIf(o -> o.saw("r", 101))),

    G1C("G1c", "circular information flow",
            "each transaction reads what the other wrote before either committed",
            () -> Schedule.builder()
                    .write(1, "UPDATE iso_acc SET x = 11 WHERE id = 1")
                    .write(2, "UPDATE iso_acc SET x = 22 WHERE id = 2")
                    .read(1, "r1", "SELECT x FROM iso_acc WHERE id = 2")
                    .read(2, "r2", "SELECT x FROM iso_acc WHERE id = 1")
                    .commit(1)
                    .commit(2)
                    .anomalousIf(o -> o.saw("r1", 22) && o.saw("r2", 11))),

    LOST_UPDATE("P4", "lost update",
            "both read x = 50 and write back their increment (+10, +20); both commit and one increment is lost",
            () -> Schedule.builder()
                    .read(1, "a", "SELECT x FROM iso_acc WHERE id = 1")
                    .read(2, "b", "SELECT x FROM iso_acc WHERE id = 1")
                    .write(1, "UPDATE iso_acc SET x = a + 10 WHERE id = 1",
                            r -> "UPDATE iso_acc SET x = " + (r.get("a") + 10) + " WHERE id = 1")
                    .write(2, "UPDATE iso_acc SET x = b + 20 WHERE id = 1",
                            r -> "UPDATE iso_acc SET x = " + (r.get("b") + 20) + " WHERE id = 1")
                    .commit(1)
                    .commit(2)
                    .anomalousIf(o -> o.bothCommitted() && o.fin("x1") != 80)),

    NON_REPEATABLE_READ("P2", "non-repeatable read",
            "T1 reads x twice and sees T2's committed change the second time",
            () -> Schedule.builder()
                    .read(1, "a1", "SELECT x FROM iso_acc WHERE id = 1")
                    .write(2, "UPDATE iso_acc SET x = 11 WHERE id = 1")
                    .commit(2)
                    .read(1, "a2", "SELECT x FROM iso_acc WHERE id = 1")
                    .commit(1)
                    .anomalousIf(o -> o.read("a1") != null && o.read("a2") != null
                            && !o.read("a1").equals(o.read("a2")))),

    PHANTOM("P3", "phantom",
            "T1 counts the rows with y > 40 twice and sees the row T2 inserted and committed in between",
            () -> Schedule.builder()
                    .read(1, "c1", "SELECT COUNT(*) FROM iso_acc WHERE y > 40")
                    .write(2, "INSERT INTO iso_acc VALUES (3, 0, 77, 0)")
                    .commit(2)
                    .read(1, "c2", "SELECT COUNT(*) FROM iso_acc WHERE y > 40")
                    .commit(1)
                    .anomalousIf(o -> o.read("c1") != null && o.read("c2") != null
                            && !o.read("c1").equals(o.read("c2")))),

    READ_SKEW("G-single", "read skew",
            "T2 moves 30 from row 1's x to row 2's x between T1's reads of the two; T1's sum is not 100",
            () -> Schedule.builder()
                    .read(1, "x1", "SELECT x FROM iso_acc WHERE id = 1")
                    .write(2, "UPDATE iso_acc SET x = x - 30 WHERE id = 1")
                    .write(2, "UPDATE iso_acc SET x = x + 30 WHERE id = 2")
                    .commit(2)
                    .read(1, "x2", "SELECT x FROM iso_acc WHERE id = 2")
                    .commit(1)
                    .anomalousIf(o -> o.read("x1") != null && o.read("x2") != null
                            && o.read("x1") + o.read("x2") != 100)),

    WRITE_SKEW("G2-item", "write skew",
            "two on call; each reads both rows by key, sees the other on call and goes off call; both commit",
            () -> Schedule.builder()
                    .read(1, "t1_1", "SELECT oncall FROM iso_acc WHERE id = 1")
                    .read(1, "t1_2", "SELECT oncall FROM iso_acc WHERE id = 2")
                    .read(2, "t2_1", "SELECT oncall FROM iso_acc WHERE id = 1")
                    .read(2, "t2_2", "SELECT oncall FROM iso_acc WHERE id = 2")
                    .write(1, "UPDATE iso_acc SET oncall = 0 WHERE id = 1")
                    .write(2, "UPDATE iso_acc SET oncall = 0 WHERE id = 2")
                    .commit(1)
                    .commit(2)
                    .anomalousIf(o -> o.bothCommitted() && o.fin("oncall1") == 0 && o.fin("oncall2") == 0)),

    G2_PREDICATE("G2", "anti-dependency cycle on a predicate",
            "each counts the rows with y > 100 (none), then inserts one; both commit though each missed the other's",
            () -> Schedule.builder()
                    .read(1, "c1", "SELECT COUNT(*) FROM iso_acc WHERE y > 100")
                    .read(2, "c2", "SELECT COUNT(*) FROM iso_acc WHERE y > 100")
                    .write(1, "INSERT INTO iso_acc VALUES (3, 0, 200, 0)")
                    .write(2, "INSERT INTO iso_acc VALUES (4, 0, 300, 0)")
                    .commit(1)
                    .commit(2)
                    .anomalousIf(o -> o.bothCommitted() && o.saw("c1", 0) && o.saw("c2", 0)));

    public final String code;
    public final String title;
    public final String description;
    private final Supplier<Schedule> schedule;

    Anomaly(String code, String title, String description, Supplier<Schedule> schedule) {
        this.code = code;
        this.title = title;
        this.description = description;
        this.schedule = schedule;
    }

    public Schedule schedule() {
        return schedule.get();
    }

    public String label() {
        return code + " " + title;
    }
}
