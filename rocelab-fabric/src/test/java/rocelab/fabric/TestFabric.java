package rocelab.fabric;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;
import rocelab.engine.RandomStreams;
import rocelab.engine.Simulator;
import rocelab.fabric.congestion.AckFeedback;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.congestion.CongestionControlFactory;
import rocelab.fabric.flowcontrol.PfcParameters;
import rocelab.fabric.network.Network;
import rocelab.fabric.network.NetworkBuilder;
import rocelab.fabric.nic.MessageListener;
import rocelab.fabric.nic.NicParameters;
import rocelab.fabric.nic.QueuePair;
import rocelab.fabric.switching.SwitchParameters;
import rocelab.fabric.topology.Topology;

/** Small fabrics for component tests, with a line-rate congestion control and a recording listener. */
public final class TestFabric {
    public final Simulator sim = new Simulator();
    public final Network network;
    public final List<long[]> completions = new ArrayList<>();
    public final List<long[]> deliveries = new ArrayList<>();
    public final List<Integer> errors = new ArrayList<>();
    public final MessageListener listener = new MessageListener() {
        @Override
        public void onMessageDelivered(long nowPs, int queuePair, long cookie) {
            deliveries.add(new long[] {nowPs, queuePair, cookie});
        }

        @Override
        public void onMessageCompleted(long nowPs, int queuePair, long cookie) {
            completions.add(new long[] {nowPs, queuePair, cookie});
        }

        @Override
        public void onQueuePairError(long nowPs, int queuePair) {
            errors.add(queuePair);
        }
    };

    public static final CongestionControlFactory LINE_RATE = paced("line-rate", c -> c.lineRateBps());

    /**
     * A congestion control that only sets the rate, {@code rate} of the QP's context (read at every packet: it may
     * follow the clock), with no window and nothing learnt from sends or ACKs.
     */
    public static CongestionControlFactory paced(String name, ToLongFunction<CongestionControlFactory.Context> rate) {
        return new CongestionControlFactory() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public CongestionControl create(Context c) {
                return new CongestionControl() {
                    @Override
                    public long rateBps() {
                        return rate.applyAsLong(c);
                    }

                    @Override
                    public long windowBytes() {
                        return Long.MAX_VALUE;
                    }

                    @Override
                    public void onSend(long nowPs, int wireBytes) {}

                    @Override
                    public void onAck(long nowPs, AckFeedback ack) {}
                };
            }
        };
    }


    public TestFabric(Topology topology, NicParameters nic, SwitchParameters sw) {
        this(topology, nic, sw, LINE_RATE);
    }

    public TestFabric(Topology topology, NicParameters nic, SwitchParameters sw, CongestionControlFactory cc) {
        this(topology, nic, sw, cc, PfcParameters.off());
    }

    public TestFabric(Topology topology, NicParameters nic, SwitchParameters sw, CongestionControlFactory cc,
            PfcParameters pfc) {
        network = new NetworkBuilder(sim, new RandomStreams(1))
                .nic(nic)
                .switches(sw)
                .congestionControl(cc)
                .pfc(pfc)
                .build(topology);
    }

    public QueuePair connect(int src, int dst) {
        return network.connect(src, dst, listener);
    }

    public static SwitchParameters switchWithBuffer(long bytes) {
        SwitchParameters d = SwitchParameters.defaults();
        return new SwitchParameters(bytes, d.forwardingLatencyPs(), d.dscpToTc(), d.scheduler(), d.dwrrWeights(),
                d.strictClasses(), d.loadBalancing(), d.ecmpHash(), d.ecmpSeed());
    }
}
