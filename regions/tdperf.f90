! tdperf's marker API for Fortran (ISO_C_BINDING over libtdperf.so).
!
!   use tdperf
!   call tdperf_region_begin("solve")
!   ...
!   call tdperf_region_end("solve")
!
! Compile this file with the program (gfortran -c tdperf.f90) and link
! with -ltdperf.  The library keeps a pointer to each name, so the names
! are copied once into storage that lives as long as the program.
module tdperf
  use, intrinsic :: iso_c_binding
  implicit none
  private
  public :: tdperf_region_begin, tdperf_region_end

  interface
    subroutine c_begin(name) bind(C, name="tdperf_region_begin")
      import :: c_ptr
      type(c_ptr), value :: name
    end subroutine
    subroutine c_end(name) bind(C, name="tdperf_region_end")
      import :: c_ptr
      type(c_ptr), value :: name
    end subroutine
  end interface

  type :: name_slot
    character(kind=c_char), pointer :: s(:) => null()
  end type
  type(name_slot), allocatable, save :: names(:)
  integer, save :: nr_names = 0

contains

  ! A NUL-terminated copy of name, made once per distinct name (under an
  ! OpenMP critical section: threads may name new regions together).
  function c_name(name) result(p)
    character(len=*), intent(in) :: name
    type(c_ptr) :: p
    integer :: i, n
    logical :: found
    type(name_slot), allocatable :: more(:)

    n = len_trim(name)
    found = .false.
    !$omp critical (tdperf_names)
    do i = 1, nr_names
      if (size(names(i)%s) == n + 1) then
        if (same(names(i)%s, name(1:n))) then
          p = c_loc(names(i)%s(1))
          found = .true.
          exit
        end if
      end if
    end do
    if (.not. found) then
      if (.not. allocated(names)) allocate(names(16))
      if (nr_names == size(names)) then
        allocate(more(2 * size(names)))
        more(1:nr_names) = names(1:nr_names)
        call move_alloc(more, names)
      end if
      nr_names = nr_names + 1
      allocate(names(nr_names)%s(n + 1))
      do i = 1, n
        names(nr_names)%s(i) = name(i:i)
      end do
      names(nr_names)%s(n + 1) = c_null_char
      p = c_loc(names(nr_names)%s(1))
    end if
    !$omp end critical (tdperf_names)
  end function

  logical function same(s, name)
    character(kind=c_char), intent(in) :: s(:)
    character(len=*), intent(in) :: name
    integer :: i

    same = .true.
    do i = 1, len(name)
      if (s(i) /= name(i:i)) then
        same = .false.
        return
      end if
    end do
  end function

  subroutine tdperf_region_begin(name)
    character(len=*), intent(in) :: name
    call c_begin(c_name(name))
  end subroutine

  subroutine tdperf_region_end(name)
    character(len=*), intent(in) :: name
    call c_end(c_name(name))
  end subroutine
end module tdperf
