package rocelab.scenario;

import java.util.Arrays;
import rocelab.observe.flow.IdealFlowTime;
import rocelab.workload.graph.TaskGraph;

/**
 * Every flow's time alone on an idle fabric ({@link IdealFlowTime#fctPs}), for the flow records. The closed form
 * walks the flow's path each time, and a job's millions of flows are a few thousand (source, destination, size)
 * triples repeated (each ring step sends the same chunk between the same neighbours), so recent answers are kept in
 * a small table indexed by a hash of the triple: the same function, computed once per triple seen recently.
 */
final class IdealFcts {
    private static final int SLOTS = 1 << 14;

    private IdealFcts() {}

    static long[] of(IdealFlowTime ideal, TaskGraph g, int flows) {
        long[] fct = new long[flows];
        int[] src = new int[SLOTS];
        int[] dst = new int[SLOTS];
        long[] bytes = new long[SLOTS];
        long[] answer = new long[SLOTS];
        Arrays.fill(src, -1);
        for (int i = 0; i < flows; i++) {
            int s = g.flowSource(i);
            int d = g.flowDestination(i);
            long b = g.flowBytes(i);
            long h = (s * 0x9E3779B97F4A7C15L) ^ (d * 0xC2B2AE3D27D4EB4FL) ^ (b * 0x165667B19E3779F9L);
            int slot = (int) (h ^ h >>> 29 ^ h >>> 47) & (SLOTS - 1);
            if (src[slot] != s || dst[slot] != d || bytes[slot] != b) {
                answer[slot] = ideal.fctPs(s, d, b);
                src[slot] = s;
                dst[slot] = d;
                bytes[slot] = b;
            }
            fct[i] = answer[slot];
        }
        return fct;
    }
}
