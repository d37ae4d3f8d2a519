package io.tidemark.spring.web;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * A response that runs an action once, as late as possible but before the response is committed:
 * before the write that would fill the container's buffer or reach the declared content length, and
 * before a flush, a close, {@code sendError} or {@code sendRedirect}. The token filter writes the
 * response token there, so it includes every write made until the status line goes out, also for
 * streamed and error responses.
 *
 * <p>Counting is conservative: characters written through the writer count as the most bytes the
 * charset may encode one into, so the action may run somewhat early, never late.
 */
final class TokenResponseWrapper extends HttpServletResponseWrapper {

  private final Runnable beforeCommit;
  private final AtomicBoolean done = new AtomicBoolean();
  private long written;
  private long contentLength = -1;
  private @Nullable ServletOutputStream stream;
  private @Nullable PrintWriter writer;

  TokenResponseWrapper(HttpServletResponse response, Runnable beforeCommit) {
    super(response);
    this.beforeCommit = beforeCommit;
  }

  /** Runs the action now unless it ran or the response is committed already. */
  void beforeCommit() {
    if (!isCommitted() && done.compareAndSet(false, true)) {
      beforeCommit.run();
    }
  }

  /**
   * Clears status, headers and buffer to answer with something else, as {@link #reset()} does, and
   * lets the action run again for the new answer.
   */
  void resetForNewAnswer() {
    super.reset();
    written = 0;
    contentLength = -1;
    done.set(false);
  }

  private synchronized void writing(long bytes) {
    written += bytes;
    if (written >= getBufferSize() || (contentLength >= 0 && written >= contentLength)) {
      beforeCommit();
    }
  }

  @Override
  public ServletOutputStream getOutputStream() throws IOException {
    ServletOutputStream current = stream;
    if (current == null) {
      current = new CountingStream(super.getOutputStream());
      stream = current;
    }
    return current;
  }

  @Override
  public PrintWriter getWriter() throws IOException {
    PrintWriter current = writer;
    if (current == null) {
      current = new CountingWriter(super.getWriter(), maxBytesPerChar());
      writer = current;
    }
    return current;
  }

  private int maxBytesPerChar() {
    try {
      return (int)
          Math.ceil(Charset.forName(getCharacterEncoding()).newEncoder().maxBytesPerChar());
    } catch (IllegalCharsetNameException
        | UnsupportedCharsetException
        | UnsupportedOperationException e) {
      return 4;
    }
  }

  @Override
  public void flushBuffer() throws IOException {
    beforeCommit();
    super.flushBuffer();
  }

  @Override
  public void sendError(int sc) throws IOException {
    beforeCommit();
    super.sendError(sc);
  }

  @Override
  public void sendError(int sc, String msg) throws IOException {
    beforeCommit();
    super.sendError(sc, msg);
  }

  @Override
  public void sendRedirect(String location) throws IOException {
    beforeCommit();
    super.sendRedirect(location);
  }

  // Servlet 6.1's redirects; the build for Spring Boot 3.5 (Servlet 6.0) leaves them out. boot-4 {
  @Override
  public void sendRedirect(String location, int sc) throws IOException {
    beforeCommit();
    super.sendRedirect(location, sc);
  }

  @Override
  public void sendRedirect(String location, boolean clearBuffer) throws IOException {
    beforeCommit();
    super.sendRedirect(location, clearBuffer);
  }

  @Override
  public void sendRedirect(String location, int sc, boolean clearBuffer) throws IOException {
    beforeCommit();
    super.sendRedirect(location, sc, clearBuffer);
  }

  // } boot-4

  @Override
  public void setContentLength(int len) {
    super.setContentLength(len);
    contentLength = len;
  }

  @Override
  public void setContentLengthLong(long len) {
    super.setContentLengthLong(len);
    contentLength = len;
  }

  @Override
  public void setHeader(String name, String value) {
    super.setHeader(name, value);
    contentLengthHeader(name, value);
  }

  @Override
  public void addHeader(String name, String value) {
    super.addHeader(name, value);
    contentLengthHeader(name, value);
  }

  @Override
  public void setIntHeader(String name, int value) {
    super.setIntHeader(name, value);
    contentLengthHeader(name, Integer.toString(value));
  }

  @Override
  public void addIntHeader(String name, int value) {
    super.addIntHeader(name, value);
    contentLengthHeader(name, Integer.toString(value));
  }

  private void contentLengthHeader(String name, @Nullable String value) {
    if ("Content-Length".equalsIgnoreCase(name) && value != null) {
      try {
        contentLength = Long.parseLong(value.trim());
      } catch (NumberFormatException e) {
        // Not a length the container would act on either.
      }
    }
  }

  /** The container's stream, telling the response what is about to be written. */
  private final class CountingStream extends ServletOutputStream {
    private final ServletOutputStream delegate;

    CountingStream(ServletOutputStream delegate) {
      this.delegate = delegate;
    }

    @Override
    public void write(int b) throws IOException {
      writing(1);
      delegate.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      writing(len);
      delegate.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
      beforeCommit();
      delegate.flush();
    }

    @Override
    public void close() throws IOException {
      beforeCommit();
      delegate.close();
    }

    @Override
    public boolean isReady() {
      return delegate.isReady();
    }

    @Override
    public void setWriteListener(WriteListener listener) {
      delegate.setWriteListener(listener);
    }
  }

  /** The container's writer, telling the response what is about to be written. */
  private final class CountingWriter extends PrintWriter {
    private final PrintWriter delegate;
    private final int bytesPerChar;

    CountingWriter(PrintWriter delegate, int bytesPerChar) {
      super(delegate);
      this.delegate = delegate;
      this.bytesPerChar = bytesPerChar;
    }

    @Override
    public void write(int c) {
      writing(bytesPerChar);
      super.write(c);
    }

    @Override
    public void write(char[] buf, int off, int len) {
      writing((long) len * bytesPerChar);
      super.write(buf, off, len);
    }

    @Override
    public void write(String s, int off, int len) {
      writing((long) len * bytesPerChar);
      super.write(s, off, len);
    }

    /** {@link PrintWriter#println()} writes the separator past the methods above: count it. */
    @Override
    public void println() {
      write(System.lineSeparator());
    }

    @Override
    public void flush() {
      beforeCommit();
      super.flush();
    }

    @Override
    public void close() {
      beforeCommit();
      super.close();
    }

    @Override
    public boolean checkError() {
      return super.checkError() || delegate.checkError();
    }
  }
}
