package org.hsqldb.a2l.tpcc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.hsqldb.a2l.tpcc.Mix;
import org.hsqldb.a2l.tpcc.StatementOrder;
import org.junit.jupiter.api.Test;

class CompareProgressTest {

    final AtomicLong now = new AtomicLong(1_000_000_000L);

    void advance(double seconds) {
        now.addAndGet((long) (seconds * 1e9));
    }

    /** Two JVMs, each 10 s fixed and two points of 20 s: 100 s planned. */
    CompareProgress twoJobs() {
        return new CompareProgress(new double[] {10, 10}, new double[] {20, 20}, new int[] {2, 2}, now::get);
    }

    @Test
    void beforeAnythingIsDoneThePlanCountsDown() {
        CompareProgress p = twoJobs();
        assertEquals(100, p.secondsLeft(), 1e-9);
        advance(15);
        p.jobStarted(0);
        assertEquals(85, p.secondsLeft(), 1e-9);
        assertEquals("compare: 0/4 points done, 15 s elapsed, about 1 min 25 s left", p.line());
    }

    @Test
    void theEstimateScalesThePlanByHowItHasFared() {
        CompareProgress p = twoJobs();
        p.jobStarted(0);
        advance(45); // planned 10 + 20 = 30: 1.5x slower than planned
        p.pointDone(0);
        assertEquals(1, p.pointsDone());
        assertEquals(70 * 1.5, p.secondsLeft(), 1e-9);
        advance(15); // the second point on plan: 60 s for 50 planned
        p.pointDone(0);
        p.jobEnded(0);
        assertEquals(50 * 1.2, p.secondsLeft(), 1e-9);
        assertEquals("compare: 2/4 points done, 1 min 0 s elapsed, about 1 min 0 s left", p.line());
    }

    @Test
    void aFailedJvmGivesUpItsRemainingPoints() {
        CompareProgress p = twoJobs();
        p.jobStarted(0);
        advance(30);
        p.pointDone(0);
        p.jobEnded(0); // stalled: its second point never ran
        assertEquals(3, p.pointsTotal());
        assertEquals(50, p.secondsLeft(), 1e-9);
        p.jobStarted(1);
        advance(30);
        p.pointDone(1);
        p.pointDone(1);
        p.jobEnded(1);
        assertEquals(3, p.pointsDone());
        assertEquals(0, p.secondsLeft(), 1e-9);
    }

    @Test
    void theProgressOfACompareFollowsItsPlansCosts() {
        CompareCost cost = new CompareCost(1, 2, 0.5, 1, 1, 3);
        List<Point> points = List.of(new Point(StatementOrder.RBW, Mix.M8_92, 1), new Point(StatementOrder.RBW, Mix.M8_92, 4));
        List<CompareCost.Job> jobs = List.of(new CompareCost.Job("upstream", 1, points, PointStart.RESTORE),
                new CompareCost.Job("fork-a2l", 1, points, PointStart.CARRY));
        CompareProgress p = CompareProgress.of(jobs, cost, 2, 3, 5, now::get);
        // restore: 1 + 2*2 + 0.5*2 + 3*2 = 12 fixed, 3 + 5 + 1*2 + 1 = 11 per point; carry: 11 fixed, 9 per point
        assertEquals(cost.totalSeconds(jobs, 2, 3, 5), p.secondsLeft(), 1e-9);
        assertEquals(12 + 22 + 11 + 18, cost.totalSeconds(jobs, 2, 3, 5), 1e-9);
    }
}
