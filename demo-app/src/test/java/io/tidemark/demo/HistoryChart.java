package io.tidemark.demo;

import io.tidemark.demo.Operation.Kind;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The history of a reliability run as an SVG chart: in each slice of the run, the slowest read and
 * the slowest write (from when each was due) and how many operations were refused, over the periods
 * each fault held, with the request's deadline drawn across. Built as plain text.
 */
final class HistoryChart {

  private static final int WIDTH = 960;
  private static final int HEIGHT = 420;
  private static final int LEFT = 60;
  private static final int RIGHT = 20;
  private static final int TOP = 40;
  private static final int BOTTOM = 50;
  private static final int MAX_SLICES = 900;
  private static final String READS = "#1f77b4";
  private static final String WRITES = "#ff7f0e";
  private static final String REFUSED = "#d62728";

  private HistoryChart() {}

  /**
   * The chart of {@code history}, whose run began at {@code started} (nanos, as the operations'),
   * under {@code faults}, with {@code deadline} drawn.
   */
  static String svg(
      String title,
      List<Operation> history,
      List<FaultSchedule.Applied> faults,
      long started,
      Duration deadline) {
    long end = history.stream().mapToLong(Operation::ended).max().orElse(started + 1);
    double seconds = Math.max(1, (end - started) / 1e9);
    int slices = (int) Math.min(MAX_SLICES, Math.ceil(seconds));
    double sliceSeconds = seconds / slices;
    long[] slowestRead = new long[slices];
    long[] slowestWrite = new long[slices];
    long[] refused = new long[slices];
    for (Operation op : history) {
      int slice = slice(op.started(), started, sliceSeconds, slices);
      long millis = op.latencyNanos() / 1_000_000;
      if (op.kind() == Kind.READ) {
        slowestRead[slice] = Math.max(slowestRead[slice], millis);
        refused[slice] += op.servedRead() ? 0 : 1;
      } else {
        slowestWrite[slice] = Math.max(slowestWrite[slice], millis);
        refused[slice] += op.acknowledged() || op.outcomeUnknown() ? 0 : 1;
      }
    }
    double maxMillis = deadline.toMillis() * 1.5;
    long maxRefused = 1;
    for (long r : refused) {
      maxRefused = Math.max(maxRefused, r);
    }
    int plotWidth = WIDTH - LEFT - RIGHT;
    int plotHeight = HEIGHT - TOP - BOTTOM;
    StringBuilder out = new StringBuilder();
    out.append(
            format(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0"
                    + " %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n",
                WIDTH, HEIGHT, WIDTH, HEIGHT))
        .append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n")
        .append(text(LEFT, 22, "start", escape(title)));
    Map<String, Integer> numbers = new LinkedHashMap<>();
    for (FaultSchedule.Applied fault : faults) {
      int number = numbers.computeIfAbsent(fault.name(), name -> numbers.size() + 1);
      double from = x(fault.inflicted(), started, seconds, plotWidth);
      double to = Math.max(from + 1, x(fault.undone(), started, seconds, plotWidth));
      out.append(
              format(
                  "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#eeeeee\">"
                      + "<title>%s</title></rect>%n",
                  from, TOP, to - from, plotHeight, escape(fault.name())))
          .append(text(from + 1, TOP + 12, "start", Integer.toString(number)));
    }
    for (int i = 0; i <= 6; i++) {
      double y = TOP + plotHeight - plotHeight * i / 6.0;
      out.append(text(LEFT - 6, y + 4, "end", Math.round(maxMillis * i / 6) + " ms"));
    }
    double deadlineY = TOP + plotHeight - plotHeight * deadline.toMillis() / maxMillis;
    out.append(
            format(
                "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#888888\""
                    + " stroke-dasharray=\"6 4\"/>%n",
                LEFT, deadlineY, LEFT + plotWidth, deadlineY))
        .append(text(LEFT + plotWidth - 4, deadlineY - 4, "end", "deadline"));
    for (int slice = 0; slice < slices; slice++) {
      if (refused[slice] > 0) {
        double height = plotHeight * 0.25 * refused[slice] / maxRefused;
        out.append(
            format(
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>%n",
                LEFT + plotWidth * (double) slice / slices,
                TOP + plotHeight - height,
                Math.max(1.0, (double) plotWidth / slices),
                height,
                REFUSED));
      }
    }
    out.append(polyline(slowestWrite, maxMillis, plotWidth, plotHeight, WRITES))
        .append(polyline(slowestRead, maxMillis, plotWidth, plotHeight, READS))
        .append(
            format(
                "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\""
                    + " stroke=\"#444444\"/>%n",
                LEFT, TOP, plotWidth, plotHeight))
        .append(text(LEFT, HEIGHT - 28, "start", "0 s"))
        .append(text(LEFT + plotWidth, HEIGHT - 28, "end", Math.round(seconds) + " s"))
        .append(legend(plotWidth))
        .append("</svg>\n");
    return out.toString();
  }

  private static String legend(int plotWidth) {
    String[][] entries = {
      {READS, "slowest read"}, {WRITES, "slowest write"}, {REFUSED, "refused"}, {"#cccccc", "fault"}
    };
    StringBuilder out = new StringBuilder();
    double x = LEFT + plotWidth / 4.0;
    for (String[] entry : entries) {
      out.append(
              format(
                  "<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>%n",
                  x, HEIGHT - 22, entry[0]))
          .append(text(x + 16, HEIGHT - 12, "start", entry[1]));
      x += 130;
    }
    return out.toString();
  }

  private static int slice(long at, long started, double sliceSeconds, int slices) {
    int slice = (int) ((at - started) / 1e9 / sliceSeconds);
    return Math.max(0, Math.min(slices - 1, slice));
  }

  private static double x(long at, long started, double seconds, int plotWidth) {
    return LEFT + plotWidth * Math.max(0, Math.min(1, (at - started) / 1e9 / seconds));
  }

  private static String polyline(
      long[] millis, double maxMillis, int plotWidth, int plotHeight, String colour) {
    StringBuilder points = new StringBuilder();
    for (int slice = 0; slice < millis.length; slice++) {
      double x = LEFT + plotWidth * (slice + 0.5) / millis.length;
      double y = TOP + plotHeight - plotHeight * Math.min(1, millis[slice] / maxMillis);
      points.append(format("%.1f,%.1f ", x, y));
    }
    return format(
        "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.2\"/>%n",
        points.toString().strip(), colour);
  }

  private static String text(double x, double y, String anchor, String text) {
    return format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>%n", x, y, anchor, text);
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static String format(String pattern, Object... args) {
    return String.format(Locale.ROOT, pattern, args);
  }
}
