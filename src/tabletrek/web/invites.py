"""Claiming seats: one-use invites, open seats of public tables, and the host's powers over them.

A person's seat (other than the creator's) starts with an invite code. The first browser to claim
it gets a fresh token of its own, and the invite is spent; the host, who made the invite, never
holds the token. The host may give a seat a new invite (its holder then only watches) and list
the table in the lobby.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tabletrek.core.events import seat_ref
from tabletrek.web.conns import SeatInfo
from tabletrek.web.errors import WebError, reason
from tabletrek.web.store import AddressHolds, Store, TableRow, new_token, token_hash

log = logging.getLogger("tabletrek.web")


class Invites:
    """Mixed into LiveTable: what it needs from it is declared here."""

    id: str
    row: TableRow
    store: Store
    lock: asyncio.Lock
    seats: list[SeatInfo]

    if TYPE_CHECKING:

        @property
        def finished(self) -> bool: ...
        def _demote(self, info: SeatInfo, key: str) -> None: ...
        def _send_seats(self, skip: Any = None) -> None: ...
        def notice(self, key: str, **args: Any) -> None: ...
        async def _run(self, fn: Callable[..., Any], *args: Any) -> Any: ...
        async def refresh_seats(self) -> None: ...

    async def claim(
        self, invite: str | None, seat: int | None, address: str | None = None
    ) -> tuple[int, str]:
        """Claim an unclaimed person's seat: with its invite code, or (a public table) by number.

        The claimer gets a fresh token of its own and the invite is spent: whoever else holds
        the code (the host who made it, or anyone it was forwarded to) can no longer take the
        seat. The store's update is atomic, so of two claims racing, one wins.

        An open seat taken by number is one per client ``address``, and none for the address
        that created the table: otherwise one stranger could take every open seat of a public
        table and see several hands. A second person from one address is seated by an invite
        from the host. Who holds what is kept in the store (as a keyed hash of the address), so
        the rule holds across restarts and across processes sharing the store."""
        if invite is None and not self.store.is_sqlite:
            await self.refresh_seats()
        async with self.lock:
            if self.finished:
                raise WebError("web.error.claim_closed")
            if invite is not None:
                digest = token_hash(invite)
                match = [
                    s
                    for s in self.seats
                    if s.invite_hash is not None and hmac.compare_digest(s.invite_hash, digest)
                ]
                if not match and not self.store.is_sqlite:
                    rows = await self._run(self.store.load_seats, self.id)
                    match = [self.seats[r.seat] for r in rows if r.invite_hash == digest]
                if not match:
                    raise WebError("web.error.invite_spent")
                info = match[0]
            else:
                if not self.row.public:
                    raise WebError("web.error.invite_spent")
                if seat is None or not 0 <= seat < len(self.seats) or self.seats[seat].invite_hash is None:
                    raise WebError("web.error.seat_taken")
                info = self.seats[seat]
                digest = None
            holder = self.store.address_key(address) if digest is None and address is not None else None
            token = new_token()
            try:
                claimed = await self._run(
                    self.store.claim_seat, self.id, info.seat, digest, token_hash(token), holder
                )
            except AddressHolds:
                raise WebError("web.error.one_seat_per_address") from None
            if not claimed:
                raise WebError("web.error.invite_spent")
            info.token_hash = token_hash(token)
            info.invite_hash = None
            log.info("table %s: seat %d claimed", self.id, info.seat + 1)
            self._send_seats()
            return info.seat, token

    async def set_public(self, host_token: str | None, public: bool) -> None:
        async with self.lock:
            self._check_host(host_token)
            if public and not any(s.kind == "human" and s.invite_hash for s in self.seats):
                raise WebError("web.error.bad_request", detail=reason("web.error.detail.no_open_seat"))
            await self._run(self.store.set_public, self.id, public)
            self.row.public = public
            self._send_seats()

    def _check_host(self, host_token: str | None) -> None:
        if not host_token or not hmac.compare_digest(token_hash(host_token), self.row.host_hash):
            raise WebError("web.error.not_host")

    async def new_invite(self, host_token: str | None, seat: int) -> str:
        """The host gives a person's seat a new one-use invite; the seat's token goes stale at once.

        Whoever held the seat watches as a spectator from now on (a leaked link, or a player who
        left for good and is replaced), and everyone sees the seat open again."""
        async with self.lock:
            self._check_host(host_token)
            if not 0 <= seat < len(self.seats) or self.seats[seat].kind != "human":
                raise WebError("web.error.bad_request", detail=reason("web.error.detail.no_person_seat"))
            code = new_token()
            digest = token_hash(code)
            await self._run(self.store.reissue_seat, self.id, seat, digest)
            info = self.seats[seat]
            held = info.token_hash is not None
            info.token_hash = None
            info.invite_hash = digest
            self._demote(info, "web.error.seat_reissued")
            if held:
                # whoever claims the new invite plays this seat's hand: everyone is told, as when
                # a seat is opened in a second window
                log.info("table %s: seat %d given a new invite by the host", self.id, seat + 1)
                self.notice("web.notice.seat_reissued", seat=seat_ref(seat))
            self._send_seats()
            return code
