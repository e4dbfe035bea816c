package org.hsqldb.a2l.tpcc;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Hooks an engine configuration can name in engine-configs.txt (fifth field). */
public final class TransactionHooks {

    private static final Map<String, TransactionHook> HOOKS = Map.of(
            "none", TransactionHook.NONE);

    private TransactionHooks() {}

    public static TransactionHook named(String name) {
        TransactionHook h = HOOKS.get(name);
        if (h == null) throw new IllegalArgumentException("unknown transaction hook '" + name + "' (" + names() + ")");
        return h;
    }

    public static Set<String> names() {
        return new TreeSet<>(HOOKS.keySet());
    }
}
