package rocelab.scenario;

import rocelab.congestion.ibcc.FecnParameters;
import rocelab.fabric.flowcontrol.credit.InfinibandParameters;

/**
 * The {@code fabric.infiniband} block of a scenario in infiniband mode.
 *
 * @param fabric credits, service levels, virtual lanes and their arbitration
 * @param fecn FECN marking of the switches (IB congestion control, switch side); null when switches never mark
 * @param smSweepPs interval of the subnet manager's sweep on VL15 (0: none)
 */
public record InfinibandSettings(InfinibandParameters fabric, FecnParameters fecn, long smSweepPs) {
    public static InfinibandSettings defaults() {
        return new InfinibandSettings(InfinibandParameters.defaults(), null, 0);
    }
}
