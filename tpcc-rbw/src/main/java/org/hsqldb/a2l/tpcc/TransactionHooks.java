package org.hsqldb.a2l.tpcc;

import java.io.PrintStream;
import java.sql.SQLException;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Hooks an engine configuration can name in engine-configs.txt (fifth field). */
public final class TransactionHooks {

    /** What a hook may look at when it is made: the loaded database, before the first measurement. */
    public record Context(ConnectionSource connections, Scale scale, NURandConstants constants, long seed,
                          PrintStream log) {}

    @FunctionalInterface
    interface Factory {
        TransactionHook create(Context context) throws SQLException;
    }

    private static final Map<String, Factory> HOOKS = Map.of(
            "none", context -> TransactionHook.NONE,
            "declared-write-sets", DeclaredWriteSets::analyze);

    /** Hooks that act on RbW transactions only; their configurations run the rbw order alone. */
    private static final Set<String> RBW_ONLY = Set.of("declared-write-sets");

    private TransactionHooks() {}

    /** Throws IllegalArgumentException naming the known hooks if {@code name} is not one. */
    public static void check(String name) {
        if (!HOOKS.containsKey(name)) {
            throw new IllegalArgumentException("unknown transaction hook '" + name + "' (" + names() + ")");
        }
    }

    public static boolean isRbwOnly(String name) {
        return RBW_ONLY.contains(name);
    }

    /**
     * Hooks that declare the transaction's writes: the engine then reads what a declaration names
     * with the FOR UPDATE lock by itself, and a FOR UPDATE read would be an exclusive request, the
     * early-release lock point, before the reads that follow it; so their reads stay plain.
     */
    public static boolean declaresWrites(String name) {
        return "declared-write-sets".equals(name);
    }

    public static TransactionHook create(String name, Context context) throws SQLException {
        check(name);
        return HOOKS.get(name).create(context);
    }

    public static Set<String> names() {
        return new TreeSet<>(HOOKS.keySet());
    }
}
