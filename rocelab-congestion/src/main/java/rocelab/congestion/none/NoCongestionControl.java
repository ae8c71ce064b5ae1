package rocelab.congestion.none;

import java.util.Map;
import rocelab.congestion.CcSettings;
import rocelab.congestion.CongestionAlgorithm;
import rocelab.fabric.congestion.AckFeedback;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.congestion.CongestionControlFactory;

/** No congestion control: every QP sends at line rate with no window; only loss recovery slows it down. */
public final class NoCongestionControl implements CongestionControl {
    /** The factory registered under the name {@code none}. */
    public static final CongestionControlFactory FACTORY = new CongestionControlFactory() {
        @Override
        public String name() {
            return "none";
        }

        @Override
        public CongestionControl create(Context context) {
            return new NoCongestionControl(context.lineRateBps());
        }
    };

    /** The scenario option {@code cc: none}. */
    public static final CongestionAlgorithm ALGORITHM = new CongestionAlgorithm() {
        @Override
        public String name() {
            return "none";
        }

        @Override
        public Map<String, Unit> parameters() {
            return Map.of();
        }

        @Override
        public CongestionControlFactory factory(CcSettings settings) {
            return FACTORY;
        }
    };

    private final long lineRateBps;

    public NoCongestionControl(long lineRateBps) {
        this.lineRateBps = lineRateBps;
    }

    @Override
    public long rateBps() {
        return lineRateBps;
    }

    @Override
    public long windowBytes() {
        return Long.MAX_VALUE;
    }

    @Override
    public boolean windowed() {
        return false;
    }

    @Override
    public void onSend(long nowPs, int wireBytes) {}

    @Override
    public void onAck(long nowPs, AckFeedback ack) {}
}
