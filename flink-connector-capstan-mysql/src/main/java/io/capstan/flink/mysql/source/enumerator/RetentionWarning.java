package io.capstan.flink.mysql.source.enumerator;

import org.apache.flink.annotation.Internal;

/**
 * When the snapshot's estimated duration deserves a warning against the binlog retention: once it
 * passes {@link #NEAR} of the retention, then again only when the ratio has grown by {@link
 * #WORSENED} since the last warning (a slower rate, a lower retention), so that a log is not filled
 * by an estimate that moves a little with every chunk. Once the ratio falls to {@link #CLEAR} (the
 * operator raised the retention, the rate picked up) the warning is withdrawn, once. The gap
 * between NEAR and CLEAR keeps an estimate that wavers around 80 % from warning over and over.
 * Pure.
 *
 * <p>Why 80 %: the binlog must outlive the snapshot and the first read of the binlog after the
 * handoff; the row estimate and the rate are both rough, and a snapshot's rate drops when its
 * tables' later key ranges are wider or the server gets busier. A fifth of the retention is the
 * margin left for that.
 */
@Internal
public final class RetentionWarning {

    /** The share of the retention past which the estimate warns. */
    public static final double NEAR = 0.8;

    /** The share of the retention below which a standing warning is withdrawn. */
    public static final double CLEAR = 0.7;

    /** How much the ratio must grow after a warning for the next one. */
    public static final double WORSENED = 1.25;

    /** What to log after a check. */
    public enum Verdict {
        NONE,
        WARN,
        FITS_AGAIN
    }

    /** The ratio of the last warning; 0 while none stands. */
    private double warnedRatio;

    /**
     * @param durationSeconds the estimated duration of the snapshot from its start
     * @param retentionSeconds the binlog retention; 0 when the server purges nothing on its own
     */
    public Verdict check(long durationSeconds, long retentionSeconds) {
        double ratio =
                retentionSeconds <= 0 ? 0 : (double) durationSeconds / (double) retentionSeconds;
        if (ratio > NEAR) {
            if (warnedRatio == 0 || ratio >= warnedRatio * WORSENED) {
                warnedRatio = ratio;
                return Verdict.WARN;
            }
            return Verdict.NONE;
        }
        if (warnedRatio > 0 && ratio <= CLEAR) {
            warnedRatio = 0;
            return Verdict.FITS_AGAIN;
        }
        return Verdict.NONE;
    }
}
