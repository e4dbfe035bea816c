import java.util.Arrays;

/**
 * Two `tpcc run`s at once in one JVM: java -cp tpcc-rbw.jar TwoRuns.java A... --and B...
 * Each run opens its own in-memory database; give them different --fork-jar files so that each
 * has its own class loader (the harness keeps one per jar list), as two JVMs would. Both runs
 * print to this JVM's standard output. The exit code is 0 if both runs passed, 1 otherwise.
 */
public class TwoRuns {
    public static void main(String[] args) throws Exception {
        int split = Arrays.asList(args).indexOf("--and");
        if (split < 0) {
            System.err.println("usage: TwoRuns RUN-ARGS... --and RUN-ARGS...");
            System.exit(2);
        }
        String[][] runs = {Arrays.copyOfRange(args, 0, split), Arrays.copyOfRange(args, split + 1, args.length)};
        int[] rc = {1, 1};
        Thread[] threads = new Thread[2];
        for (int i = 0; i < 2; i++) {
            int n = i;
            threads[n] = new Thread(() -> {
                try {
                    rc[n] = org.hsqldb.a2l.tpcc.cli.Main.execute(runs[n], System.out, System.err);
                } catch (Throwable t) {
                    t.printStackTrace();
                    rc[n] = 1;
                }
            }, "run-" + n);
            threads[n].start();
        }
        for (Thread t : threads) t.join();
        System.out.println("exit codes " + rc[0] + " " + rc[1]);
        System.exit(rc[0] == 0 && rc[1] == 0 ? 0 : 1);
    }
}
