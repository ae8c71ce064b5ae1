package rocelab.scenario.chakra;

import java.nio.file.Path;
import rocelab.scenario.chakra.proto.EtDef.CollectiveCommType;

/**
 * The generator of the shipped chakra-3d example's traces (scenarios/examples/workloads/chakra-3d/3d.R.et): one
 * training step of a model laid out TP 2 x DP 2 x PP 2 on 8 ranks (rank = tp + 2 dp + 4 pp, Megatron's order), two
 * micro-batches through a two-stage pipeline. ChakraExampleTest checks that the committed files are exactly what
 * this writes; after a change, regenerate them with
 * {@code mvn -q -pl rocelab-scenario -am test-compile} and
 * {@code java -cp "rocelab-scenario/target/test-classes:rocelab-scenario/target/classes:$(find ~/.m2 -name
 * 'protobuf-java-4.36.2.jar')" rocelab.scenario.chakra.ChakraExample scenarios/examples/workloads/chakra-3d}.
 */
public final class ChakraExample {
    /** File name prefix: 3d.0.et ... 3d.7.et. */
    public static final String PREFIX = "3d";

    private static final long MIB = 1 << 20;

    private ChakraExample() {}

    public static ChakraTraces traces() {
        ChakraTraces t = new ChakraTraces(8);
        for (int r = 0; r < 8; r++) {
            int tp = r % 2;
            int dp = r / 2 % 2;
            int pp = r / 4;
            ChakraTraces.Rank k = t.rank(r);
            String tpGroup = "tp-dp" + dp + "-pp" + pp;
            String dpGroup = "dp-tp" + tp + "-pp" + pp;
            long last = k.mem("load-batch", true, 5);
            for (int mb = 0; mb < 2; mb++) {
                if (pp == 1) {
                    last = k.recv("recv-act-mb" + mb, r - 4, mb, 4 * MIB, last);
                }
                last = k.comp("fwd-mb" + mb, 60, last);
                last = k.coll("fwd-tp-allreduce-mb" + mb, CollectiveCommType.ALL_REDUCE, 4 * MIB, tpGroup, last);
                if (pp == 1) {
                    // Timed by its operation count: 2 GFLOP at the scenario's ops-per-second.
                    last = k.compOps("loss-mb" + mb, 2_000_000_000L, last);
                }
                if (pp == 0) {
                    last = k.send("send-act-mb" + mb, r + 4, mb, 4 * MIB, last);
                }
            }
            long grads = -1;
            for (int mb = 0; mb < 2; mb++) {
                if (pp == 0) {
                    last = k.recv("recv-grad-mb" + mb, r + 4, 100 + mb, 4 * MIB, last);
                }
                last = k.comp("bwd-mb" + mb, 120, last);
                last = k.coll("bwd-tp-allreduce-mb" + mb, CollectiveCommType.ALL_REDUCE, 4 * MIB, tpGroup, last);
                if (pp == 1) {
                    // The gradient goes back while the next micro-batch's backward runs.
                    long sent = k.send("send-grad-mb" + mb, r - 4, 100 + mb, 4 * MIB, last);
                    grads = grads < 0 ? sent : grads;
                }
            }
            // The data-parallel gradient reduction of the stage's weights, then the optimizer.
            long ar = grads < 0
                    ? k.coll("dp-allreduce-grads", CollectiveCommType.ALL_REDUCE, 16 * MIB, dpGroup, last)
                    : k.coll("dp-allreduce-grads", CollectiveCommType.ALL_REDUCE, 16 * MIB, dpGroup, last, grads);
            long opt = k.comp("optimizer", 20, ar);
            k.mem("store-checkpoint-shard", false, 10, opt);
        }
        return t;
    }

    public static void main(String[] args) throws Exception {
        traces().write(Path.of(args[0]), PREFIX);
    }
}
