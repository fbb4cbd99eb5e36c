// SPDX-License-Identifier: GPL-2.0
/*
 * Moving RPC messages between xdr_bufs, scatterlists and bounce pages.
 *
 * An FRWR maps one virtually contiguous range: every page but the first
 * must start on a page boundary and every page but the last must end on
 * one. An RPC's page list (NFS READ and WRITE data) satisfies that, so it
 * is registered in place. A whole message (head, pages, tail) does not:
 * the head ends anywhere. Long calls and Reply chunks therefore go
 * through bounce pages we own, at the price of a copy, and keep one MR
 * per chunk.
 */
#include <linux/slab.h>
#include <linux/highmem.h>
#include <linux/scatterlist.h>

#include "rsx.h"

/**
 * rsx_bounce_alloc - bounce pages for a message
 * @len: its length
 * @gfp: allocation flags
 *
 * Return: whole pages for @len bytes, or NULL.
 */
struct rsx_bounce *rsx_bounce_alloc(unsigned int len, gfp_t gfp)
{
	unsigned int n = DIV_ROUND_UP(len, PAGE_SIZE), i;
	struct rsx_bounce *b;

	b = kzalloc(struct_size(b, pages, n), gfp);
	if (!b)
		return NULL;
	b->len = len;
	for (i = 0; i < n; i++) {
		b->pages[i] = alloc_page(gfp);
		if (!b->pages[i]) {
			rsx_bounce_free(b);
			return NULL;
		}
		b->nr_pages++;
	}
	return b;
}

/**
 * rsx_bounce_free - free bounce pages
 * @b: from rsx_bounce_alloc(), or NULL
 */
void rsx_bounce_free(struct rsx_bounce *b)
{
	unsigned int i;

	if (!b)
		return;
	for (i = 0; i < b->nr_pages; i++)
		__free_page(b->pages[i]);
	kfree(b);
}

/**
 * rsx_pages_sg - a scatterlist over part of a page list
 * @pages: the page list
 * @base: byte offset into it
 * @len: bytes
 * @nents: out: entries
 * @gfp: allocation flags
 *
 * Return: the scatterlist (kfree() it), or NULL if @len is 0, needs
 * more than rsx_max_pages pages, or no memory.
 */
struct scatterlist *rsx_pages_sg(struct page **pages, unsigned int base,
				 unsigned int len, int *nents, gfp_t gfp)
{
	struct scatterlist *sg;
	unsigned int n, i, chunk;

	pages += base >> PAGE_SHIFT;
	base = offset_in_page(base);
	n = DIV_ROUND_UP(base + len, PAGE_SIZE);
	if (!len || n > rsx_max_pages)
		return NULL;
	sg = kmalloc_array(n, sizeof(*sg), gfp);
	if (!sg)
		return NULL;
	sg_init_table(sg, n);
	for (i = 0; i < n; i++) {
		chunk = min_t(unsigned int, PAGE_SIZE - base, len);
		sg_set_page(&sg[i], pages[i], chunk, base);
		len -= chunk;
		base = 0;
	}
	*nents = n;
	return sg;
}

/**
 * rsx_bounce_sg - a scatterlist over bounce pages
 * @b: the pages
 * @nents: out: entries
 * @gfp: allocation flags
 *
 * Return: as rsx_pages_sg().
 */
struct scatterlist *rsx_bounce_sg(struct rsx_bounce *b, int *nents, gfp_t gfp)
{
	return rsx_pages_sg(b->pages, 0, b->len, nents, gfp);
}

/**
 * rsx_bounce_from_xdr - linearize a whole call into bounce pages
 * @b: room for @xdr->len bytes
 * @xdr: the call
 *
 * Return: 0, or the error of read_bytes_from_xdr_buf().
 */
int rsx_bounce_from_xdr(struct rsx_bounce *b, const struct xdr_buf *xdr)
{
	unsigned int off = 0, chunk, i;
	int err;

	for (i = 0; off < xdr->len; i++) {
		chunk = min_t(unsigned int, PAGE_SIZE, xdr->len - off);
		err = read_bytes_from_xdr_buf(xdr, off, page_address(b->pages[i]),
					      chunk);
		if (err)
			return err;
		off += chunk;
	}
	return 0;
}

static unsigned int rsx_copy_to_pages(struct page **pages, unsigned int base,
				      const u8 *src, unsigned int len)
{
	unsigned int done = 0, chunk;
	struct page **pp;
	char *dst;

	while (done < len) {
		pp = pages + ((base + done) >> PAGE_SHIFT);
		chunk = min_t(unsigned int, len - done,
			      PAGE_SIZE - offset_in_page(base + done));
		dst = kmap_local_page(*pp);
		memcpy(dst + offset_in_page(base + done), src + done, chunk);
		kunmap_local(dst);
		flush_dcache_page(*pp);
		done += chunk;
	}
	return done;
}

/**
 * rsx_xdr_scatter - write reply bytes into an RPC's receive buffer
 * @xdr: the receive buffer
 * @off: where in it
 * @src: the bytes
 * @len: how many
 *
 * Writes within what the upper layer made room for in the head, the
 * pages and the tail.
 *
 * Return: bytes written (less than @len if they did not fit).
 */
unsigned int rsx_xdr_scatter(struct xdr_buf *xdr, unsigned int off,
			     const void *src, unsigned int len)
{
	const u8 *s = src;
	unsigned int done = 0, n;

	if (off < xdr->head[0].iov_len) {
		n = min(len, (unsigned int)xdr->head[0].iov_len - off);
		memcpy((u8 *)xdr->head[0].iov_base + off, s, n);
		done += n;
		off = 0;
	} else {
		off -= xdr->head[0].iov_len;
	}
	if (done < len && off < xdr->page_len) {
		n = min(len - done, xdr->page_len - off);
		rsx_copy_to_pages(xdr->pages, xdr->page_base + off, s + done, n);
		done += n;
		off = 0;
	} else if (done < len) {
		off -= xdr->page_len;
	}
	if (done < len && off < xdr->tail[0].iov_len) {
		n = min(len - done, (unsigned int)xdr->tail[0].iov_len - off);
		memcpy((u8 *)xdr->tail[0].iov_base + off, s + done, n);
		done += n;
	}
	return done;
}

/**
 * rsx_bounce_to_xdr - copy a reply from bounce pages into the receive buffer
 * @xdr: the receive buffer
 * @b: the bounce pages
 * @len: bytes of reply in them
 *
 * Return: bytes copied (less than @len if they did not fit).
 */
unsigned int rsx_bounce_to_xdr(struct xdr_buf *xdr, const struct rsx_bounce *b,
			       unsigned int len)
{
	unsigned int off = 0, chunk, n, i;

	len = min(len, b->len);
	for (i = 0; off < len; i++) {
		chunk = min_t(unsigned int, PAGE_SIZE, len - off);
		n = rsx_xdr_scatter(xdr, off, page_address(b->pages[i]), chunk);
		off += n;
		if (n < chunk)
			break;
	}
	return off;
}

/**
 * rsx_fill_sparse_pages - provide the pages of a sparse receive buffer
 * @xdr: the receive buffer
 * @gfp: allocation flags
 *
 * With XDRBUF_SPARSE_PAGES (NFSACL GETACL, for one) the upper layer
 * leaves the page list empty and the transport provides pages for what
 * arrives; the upper layer frees them.
 *
 * Return: 0 or -ENOMEM.
 */
int rsx_fill_sparse_pages(struct xdr_buf *xdr, gfp_t gfp)
{
	struct page **pp;
	int left;

	if (!(xdr->flags & XDRBUF_SPARSE_PAGES))
		return 0;
	pp = xdr->pages + (xdr->page_base >> PAGE_SHIFT);
	for (left = offset_in_page(xdr->page_base) + xdr->page_len; left > 0;
	     left -= PAGE_SIZE, pp++) {
		if (!*pp)
			*pp = alloc_page(gfp);
		if (!*pp)
			return -ENOMEM;
	}
	return 0;
}
