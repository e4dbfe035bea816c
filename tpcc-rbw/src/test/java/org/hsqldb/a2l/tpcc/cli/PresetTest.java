package org.hsqldb.a2l.tpcc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.hsqldb.a2l.tpcc.Mix;
import org.hsqldb.a2l.tpcc.StatementOrder;
import org.hsqldb.a2l.tpcc.engine.EngineConfig;
import org.hsqldb.a2l.tpcc.engine.EngineRegistry;
import org.junit.jupiter.api.Test;

/** The headline preset's plan, by its own arithmetic (CompareCost.DEFAULT): nothing is run. */
class PresetTest {

    static List<EngineConfig> inRegistry() {
        EngineRegistry registry = EngineRegistry.load();
        List<EngineConfig> out = new ArrayList<>();
        for (String name : Preset.HEADLINE_CONFIGS) registry.find(name).ifPresent(out::add);
        return out;
    }

    /** A peer engine's configuration as the registry might name it: a JDBC URL, no HSQLDB jar. */
    static EngineConfig peer(String name) {
        EngineConfig c = EngineConfig.custom("jdbc:" + name + ":x", List.of(), null, null, null);
        return new EngineConfig(name, c.jar(), c.urlProperties(), c.setupSql(), c.hook(), c.customUrl(), c.customJars(),
                c.driverClass(), c.user(), c.password(), c.reads(), c.systemProperties());
    }

    Preset.Choice choose(List<EngineConfig> configs) {
        return Preset.choose(configs, Preset.HEADLINE_CLIENTS, Preset.HEADLINE_WAREHOUSES, CompareCost.DEFAULT,
                PointStart::sameDatabaseFor);
    }

    /** upstream, upstream-mvlocks, fork-a2l, fork-a2l-cell: what the headline always runs. */
    static List<EngineConfig> core() {
        return inRegistry().subList(0, 4);
    }

    /**
     * At 4 warehouses Derby's load and restores (3-7x HSQLDB's) do not fit beside the others even at the
     * ladder's last rung, nor do the seven left without it: Derby and fork-lf, the last two, are left out,
     * and say so; H2 and PostgreSQL stay, and so do both granularities of A2L.
     */
    @Test
    void withThePeersTooTheHeadlineKeepsAllButDerbyAndLfAtShorterDurations() {
        List<EngineConfig> configs = inRegistry();
        assertTrue(configs.stream().map(EngineConfig::name).toList().containsAll(List.of("h2", "derby", "postgresql")),
                configs.toString());
        Preset.Fit fit = Preset.fit(configs, 4, Preset.HEADLINE_CLIENTS, 4, CompareCost.DEFAULT, PointStart::sameDatabaseFor);
        assertTrue(fit.choice().fits(), "planned " + fit.choice().seconds() + " s");
        assertEquals(List.of("derby", "fork-lf"), fit.leftOut());
        assertEquals(configs.size() - 2, fit.kept().size());
        assertTrue(fit.choice().rung().reps() >= 2);
        assertEquals(core(), fit.kept().subList(0, 4), "the core four are never left out");
    }

    @Test
    void anEngineThatLoadsAndRestoresSlowlyCostsMoreInThePlan() {
        EngineRegistry registry = EngineRegistry.load();
        List<Point> points = Preset.points(List.of(Mix.M8_92), List.of(1, 2)).stream()
                .filter(p -> p.order() == StatementOrder.ORIGINAL).toList();
        double h2 = 0, derby = 0, upstream = 0;
        for (CompareCost.Job j : Preset.jobs(List.of(registry.find("upstream").orElseThrow(), registry.find("h2").orElseThrow(),
                registry.find("derby").orElseThrow()), points, 1, PointStart::sameDatabaseFor)) {
            double s = CompareCost.DEFAULT.jobSeconds(j, 4, 5, 15);
            switch (j.config()) {
                case "upstream" -> upstream = s;
                case "h2" -> h2 = s;
                default -> derby = s;
            }
        }
        assertTrue(upstream < h2 && h2 < derby, upstream + " " + h2 + " " + derby);
    }

    @Test
    void peersRunTheOriginalOrderOnly() {
        EngineRegistry registry = EngineRegistry.load();
        List<EngineConfig> configs = List.of(registry.find("fork-a2l").orElseThrow(), registry.find("h2").orElseThrow());
        List<Point> points = Preset.points(List.of(Mix.M8_92, Mix.M100_0), List.of(1, 16));
        List<CompareCost.Job> jobs = Preset.jobs(configs, points, 1, PointStart::sameDatabaseFor);
        assertEquals(6, jobs.get(0).points().size());
        assertEquals(4, jobs.get(1).points().size());
        assertTrue(jobs.get(1).points().stream().allMatch(p -> p.order() == StatementOrder.ORIGINAL));
        assertEquals(PointStart.RESTORE, jobs.get(1).start(), "a peer's points start from its restored tables too");
    }

    @Test
    void aPointAfterAReadOnlyOneNeedsNoRestore() {
        CompareCost cost = CompareCost.DEFAULT;
        Point write = new Point(StatementOrder.ORIGINAL, Mix.M8_92, 1), read = new Point(StatementOrder.ORIGINAL, Mix.M100_0, 1);
        double restore = cost.restorePerWarehouse() * 4;
        double writesFirst = cost.jobSeconds(new CompareCost.Job("x", 1, List.of(write, read, read, write), PointStart.RESTORE), 4, 5, 15);
        double allWrites = cost.jobSeconds(new CompareCost.Job("x", 1, List.of(write, write, write, write), PointStart.RESTORE), 4, 5, 15);
        assertEquals(allWrites - 2 * restore, writesFirst, 1e-9, "the read and the write after the read restore nothing");
    }

    @Test
    void theHeadlineFitsNinetyMinutesWithItsCoreConfigurations() {
        List<EngineConfig> configs = core();
        assertTrue(configs.stream().map(EngineConfig::name).toList().containsAll(
                List.of("upstream", "upstream-mvlocks", "fork-a2l", "fork-a2l-cell")), configs.toString());
        Preset.Choice c = choose(configs);
        assertTrue(c.fits(), "planned " + c.seconds() + " s");
        assertTrue(c.seconds() <= Preset.BUDGET_SECONDS);
        assertEquals(CompareCost.DEFAULT.totalSeconds(c.jobs(), 4, c.rung().warmup(), c.rung().seconds()), c.seconds(), 1e-9);
        assertTrue(c.rung().reps() >= 2);
        assertTrue(c.rung().mixes().containsAll(List.of(Mix.M8_92, Mix.M100_0)));
        assertEquals(configs.size() * c.rung().reps(), c.jobs().size(), "one JVM per configuration and repetition");
    }

    @Test
    void moreConfigurationsNeverGetLongerDurationsAndAPlanThatCannotFitSaysSo() {
        List<EngineConfig> configs = new ArrayList<>(inRegistry());
        for (String name : Preset.HEADLINE_CONFIGS) {
            if (configs.stream().noneMatch(c -> c.name().equals(name))) {
                configs.add(name.startsWith("fork") ? EngineConfig.hsqldb(name, EngineConfig.JarKind.FORK, "", List.of(), "none")
                        : peer(name));
            }
        }
        assertEquals(8, configs.size());
        Preset.Choice all = choose(configs);
        Preset.Choice four = choose(core());
        assertTrue(Preset.LADDER.indexOf(all.rung()) >= Preset.LADDER.indexOf(four.rung()));
        assertEquals(all.seconds() <= Preset.BUDGET_SECONDS, all.fits());
        assertEquals(CompareCost.DEFAULT.totalSeconds(all.jobs(), 4, all.rung().warmup(), all.rung().seconds()),
                all.seconds(), 1e-9);
    }

    @Test
    void readOnlyWorkRunsInOneOrderOnly() {
        List<Point> points = Preset.points(List.of(Mix.M8_92, Mix.M100_0), List.of(1, 16));
        assertEquals(List.of(new Point(StatementOrder.ORIGINAL, Mix.M8_92, 1), new Point(StatementOrder.ORIGINAL, Mix.M8_92, 16),
                new Point(StatementOrder.RBW, Mix.M8_92, 1), new Point(StatementOrder.RBW, Mix.M8_92, 16),
                new Point(StatementOrder.ORIGINAL, Mix.M100_0, 1), new Point(StatementOrder.ORIGINAL, Mix.M100_0, 16)), points);
    }

    @Test
    void jobsAlternateConfigurationsAndRotateThePoints() {
        EngineRegistry registry = EngineRegistry.load();
        List<EngineConfig> configs = List.of(registry.find("upstream").orElseThrow(), registry.find("fork-a2l-rl").orElseThrow());
        List<Point> points = Preset.points(List.of(Mix.M8_92), List.of(1, 2));
        List<CompareCost.Job> jobs = Preset.jobs(configs, points, 2, PointStart::sameDatabaseFor);
        assertEquals(List.of("upstream", "fork-a2l-rl", "upstream", "fork-a2l-rl"), jobs.stream().map(CompareCost.Job::config).toList());
        assertEquals(points.get(1), jobs.get(2).points().get(0), "rep 2 starts one point later");
        assertEquals(points.get(0), jobs.get(2).points().get(3), "and ends with the first");
        assertTrue(jobs.get(1).points().stream().allMatch(p -> p.order() == StatementOrder.RBW), "RbW-only configurations");
    }

    @Test
    void readOnlyPointsRunFirstAndTheMostClientsLast() {
        List<Point> points = Preset.points(List.of(Mix.M8_92, Mix.M100_0), List.of(1, 2, 8, 16));
        EngineConfig upstream = EngineRegistry.load().find("upstream").orElseThrow();
        for (CompareCost.Job job : Preset.jobs(List.of(upstream), points, 2, PointStart::sameDatabaseFor)) {
            List<Integer> groups = job.points().stream().map(Preset::runGroup).toList();
            assertEquals(groups.stream().sorted().toList(), groups, job.toString());
            assertTrue(job.points().subList(0, 4).stream().allMatch(p -> p.mix().readOnly()), job.toString());
            assertTrue(job.points().subList(8, 12).stream().allMatch(p -> p.clients() > 2 && !p.mix().readOnly()));
        }
    }
}
